package desktop_test

import (
	"testing"
)

// TestStatusHostInUse: with no host in the settings, the model status
// names the host in use ($OLLAMA_HOST here) and where it comes from, so
// that Settings shows it instead of the default's placeholder.
func TestStatusHostInUse(t *testing.T) {
	t.Setenv("OLLAMA_HOST", "gpu-box.invalid:11500")
	svc, _ := newServices(t)
	st, err := svc.Ask.Status()
	if err != nil {
		t.Fatal(err)
	}
	if st.Host != "http://gpu-box.invalid:11500" || st.HostSource != "OLLAMA_HOST" || st.Running {
		t.Errorf("status %+v: want the host of OLLAMA_HOST, not running", st)
	}
	t.Setenv("OLLAMA_HOST", "")
	st, _ = svc.Ask.Status()
	if st.Host != "http://127.0.0.1:11434" || st.HostSource != "default" {
		t.Errorf("status %+v: want the default host", st)
	}
}
