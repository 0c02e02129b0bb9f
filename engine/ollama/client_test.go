package ollama

import (
	"strings"
	"testing"
	"time"

	"querent/engine"
)

func TestHost(t *testing.T) {
	tests := []struct {
		name, host, env string
		want            string // "" = a usage error
	}{
		{"empty", "", "", "http://127.0.0.1:11434"},
		{"env var", "", "10.0.0.5:8080", "http://10.0.0.5:8080"},
		{"env var quoted, listen-all", "", `"0.0.0.0"`, "http://127.0.0.1:11434"},
		{"config beats env", "localhost:1", "10.0.0.5:8080", "http://localhost:1"},
		{"host:port", "localhost:11434", "", "http://localhost:11434"},
		{"bare host", "gpu-box", "", "http://gpu-box:11434"},
		{"url", "http://127.0.0.1:11435", "", "http://127.0.0.1:11435"},
		{"url without port means 80", "http://127.0.0.1", "", "http://127.0.0.1:80"},
		{"https without port means 443", "https://ollama.example", "", "https://ollama.example:443"},
		{"port only", ":11435", "", "http://127.0.0.1:11435"},
		{"https", "https://x:1", "", "https://x:1"},
		{"scheme case, path prefix", "HTTP://Box:2/proxy/", "", "http://Box:2/proxy"},
		{"ipv6", "[::1]:11434", "", "http://[::1]:11434"},
		{"bare ipv6", "::1", "", "http://[::1]:11434"},
		{"spaces trimmed", "  localhost:3  ", "", "http://localhost:3"},
		{"garbage", "not a host", "", ""},
		{"unknown scheme", "ftp://x:1", "", ""},
		{"port not a number", "localhost:port", "", ""},
		{"port zero", "x:0", "", ""},
		{"port too big", "x:70000", "", ""},
		{"scheme only", "http://", "", ""},
		{"query", "http://x:1?y=2", "", ""},
		{"user info", "http://me@x:1", "", ""},
		{"bad name", "a..b:1", "", ""},
		{"bad env", "", "%%%", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("OLLAMA_HOST", tt.env)
			c, err := New(Config{Host: tt.host})
			if tt.want == "" {
				if err == nil {
					t.Fatalf("New(%q) host = %s, want a usage error", tt.host, c.Host())
				}
				e := wantError(t, err, engine.CodeUsage, "invalid Ollama address", "127.0.0.1:11434")
				if from := map[bool]string{true: "OLLAMA_HOST", false: "--ollama"}[tt.host == ""]; !strings.Contains(e.Hint, from) {
					t.Errorf("hint = %q, want it to name %s", e.Hint, from)
				}
				return
			}
			if err != nil {
				t.Fatalf("New(%q): %v", tt.host, err)
			}
			if got := c.Host(); got != tt.want {
				t.Errorf("Host() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestTimeoutsDefault(t *testing.T) {
	tests := []struct {
		set, want time.Duration
	}{
		{0, 120 * time.Second},
		{-time.Second, 120 * time.Second},
		{5 * time.Second, 5 * time.Second},
	}
	for _, tt := range tests {
		c, err := New(Config{Host: "localhost", RequestTimeout: tt.set})
		if err != nil {
			t.Fatal(err)
		}
		if got := c.RequestTimeout(); got != tt.want {
			t.Errorf("RequestTimeout(%v) = %v, want %v", tt.set, got, tt.want)
		}
	}
}

func TestShort(t *testing.T) {
	long := strings.Repeat("é", 400) // 2 bytes each: a cut must not split one
	got := short(long)
	if !strings.HasSuffix(got, "…") || len(got) > 304 || !strings.HasPrefix(got, "éé") {
		t.Errorf("short(long) = %q (%d bytes)", got, len(got))
	}
	if got := short(" a\n  b "); got != "a b" {
		t.Errorf("short = %q, want %q", got, "a b")
	}
}
