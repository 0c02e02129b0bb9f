package web_test

import (
	"context"
	"testing"
	"time"

	"querent/engine/ollama/ollamatest"
	"querent/engine/sensitive"
	"querent/engine/sqlite"
)

// TestSensitiveEndToEnd drives issue 28's page in the real browser
// (frontend/e2e/sensitive.e2e.mjs), in English, French and Chinese: with
// Customer.Email marked in the data folder the command line shares, the
// grid marks Email and a column computed from it, and an export masks
// them unless the analyst ticks "include".
func TestSensitiveEndToEnd(t *testing.T) {
	needsBrowser(t, "")
	out := reportDir(t)
	fake := ollamatest.New(t)
	st, err := sensitive.OpenDefault()
	if err != nil {
		t.Fatal(err)
	}
	args := []string{out}
	for i, lang := range []string{"en", "fr", "zh"} {
		path := chinookCopy(t, t.TempDir(), 2800+i)
		db, err := sqlite.Open(context.Background(), path, sqlite.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.Add(context.Background(), db, "Customer.Email"); err != nil {
			t.Fatal(err)
		}
		db.Close()
		args = append(args, lang+"="+serveLang(t, fake.URL, path, t.TempDir(), lang))
	}
	runScript(t, "sensitive.e2e.mjs", 3*time.Minute, args)
}
