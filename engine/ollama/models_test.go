package ollama

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"testing"
	"time"

	"querent/engine"
)

func TestModels(t *testing.T) {
	c := fakeOllama(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || r.URL.Path != "/api/tags" {
			t.Errorf("request %s %s, want GET /api/tags", r.Method, r.URL.Path)
		}
		writeLines(t, w, map[string]any{"models": []any{
			map[string]any{"name": "qwen2.5-coder:7b", "model": "qwen2.5-coder:7b", "modified_at": "2025-05-01T10:00:00Z",
				"size": 4683087332, "digest": "abc", "details": map[string]any{"family": "qwen2", "parameter_size": "7.6B",
					"quantization_level": "Q4_K_M"}},
			map[string]any{"name": "nomic-embed-text:latest", "model": "nomic-embed-text:latest", "size": 274302450,
				"details": map[string]any{"family": "nomic-bert", "parameter_size": "137M", "quantization_level": "F16"}},
		}})
	})
	got, err := c.Models(context.Background())
	if err != nil {
		t.Fatalf("Models: %v", err)
	}
	want := []engine.ModelInfo{
		{Name: "qwen2.5-coder:7b", Family: "qwen2", ParameterSize: "7.6B", Quantization: "Q4_K_M", SizeBytes: 4683087332, Digest: "abc", Capabilities: []string{}},
		{Name: "nomic-embed-text:latest", Family: "nomic-bert", ParameterSize: "137M", Quantization: "F16", SizeBytes: 274302450, Capabilities: []string{}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Models() = %+v, want %+v", got, want)
	}
}

func TestModelsEmptyAndErrors(t *testing.T) {
	tests := []struct {
		name    string
		handler http.HandlerFunc
		code    string // "" = success with no models
		msg     string
	}{
		{"none installed", func(w http.ResponseWriter, r *http.Request) { writeLines(t, w, map[string]any{"models": []any{}}) }, "", ""},
		{"not Ollama", func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) }, engine.CodeLLMUnavailable, "does not answer like Ollama"},
		{"not JSON", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("<html>hello</html>")) }, engine.CodeLLMUnavailable, "does not answer like Ollama"},
		{"stuck", func(w http.ResponseWriter, r *http.Request) { hang(r) }, engine.CodeLLMUnavailable, "did not answer within 200ms"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := fakeOllama(t, tt.handler)
			c.listTO = 200 * time.Millisecond
			got, err := c.Models(context.Background())
			if tt.code == "" {
				if err != nil || got == nil || len(got) != 0 {
					t.Errorf("Models() = %#v, %v; want an empty list", got, err)
				}
				return
			}
			wantError(t, err, tt.code, tt.msg, "")
		})
	}
}

func TestVersion(t *testing.T) {
	c := fakeOllama(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/version" {
			t.Errorf("path = %s, want /api/version", r.URL.Path)
		}
		writeLines(t, w, map[string]string{"version": "0.17.4"})
	})
	got, err := c.Version(context.Background())
	if err != nil || got != "0.17.4" {
		t.Errorf("Version() = %q, %v; want 0.17.4", got, err)
	}
}

func TestEmbed(t *testing.T) {
	tests := []struct {
		name    string
		handler func(t *testing.T, w http.ResponseWriter, r *http.Request)
		want    [][]float32
		code    string
		msg     string
	}{
		{
			name: "vectors",
			handler: func(t *testing.T, w http.ResponseWriter, r *http.Request) {
				if r.URL.Path != "/api/embed" {
					t.Errorf("path = %s, want /api/embed", r.URL.Path)
				}
				body := readBody(t, r)
				if got := string(body["model"]); got != `"nomic-embed-text"` {
					t.Errorf("model = %s", got)
				}
				if got := string(body["input"]); got != `["Artist name","Invoice total"]` {
					t.Errorf("input = %s", got)
				}
				writeLines(t, w, map[string]any{"model": "nomic-embed-text", "embeddings": [][]float32{{0.25, -1}, {0.5, 2}}})
			},
			want: [][]float32{{0.25, -1}, {0.5, 2}},
		},
		{
			name: "model missing",
			handler: func(t *testing.T, w http.ResponseWriter, r *http.Request) {
				writeError(w, http.StatusNotFound, `model "nomic-embed-text" not found, try pulling it first`)
			},
			code: engine.CodeModelMissing, msg: "the model nomic-embed-text is not installed",
		},
		{
			name: "cannot embed",
			handler: func(t *testing.T, w http.ResponseWriter, r *http.Request) {
				writeError(w, http.StatusBadRequest, `"nomic-embed-text" does not support embeddings`)
			},
			code: engine.CodeModelError, msg: "cannot make embeddings",
		},
		{
			name: "server error",
			handler: func(t *testing.T, w http.ResponseWriter, r *http.Request) {
				writeError(w, http.StatusInternalServerError, "failed to generate embedding")
			},
			code: engine.CodeModelError, msg: "failed to generate embedding",
		},
		{
			name: "too few vectors",
			handler: func(t *testing.T, w http.ResponseWriter, r *http.Request) {
				writeLines(t, w, map[string]any{"embeddings": [][]float32{{1}}})
			},
			code: engine.CodeModelError, msg: "returned 1 embeddings for 2 inputs",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := fakeOllama(t, func(w http.ResponseWriter, r *http.Request) { tt.handler(t, w, r) })
			got, err := c.Embed(context.Background(), "nomic-embed-text", []string{"Artist name", "Invoice total"})
			if tt.code != "" {
				wantError(t, err, tt.code, tt.msg, "")
				return
			}
			if err != nil {
				t.Fatalf("Embed: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Embed() = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestEmbedNoInputs(t *testing.T) {
	c := fakeOllama(t, func(w http.ResponseWriter, r *http.Request) { t.Error("no request should be sent") })
	got, err := c.Embed(context.Background(), "m", nil)
	if err != nil || len(got) != 0 {
		t.Errorf("Embed(nil) = %v, %v; want no vectors", got, err)
	}
}

func TestPull(t *testing.T) {
	progressLines := []map[string]any{
		{"status": "pulling manifest"},
		{"status": "pulling 6a0746a1ec1a", "digest": "sha256:6a0746a1ec1a", "total": 4000, "completed": 1000},
		{"status": "pulling 6a0746a1ec1a", "digest": "sha256:6a0746a1ec1a", "total": 4000, "completed": 4000},
		{"status": "verifying sha256 digest"},
		{"status": "writing manifest"},
	}
	stall := func(t *testing.T, w http.ResponseWriter, r *http.Request) {
		writeLines(t, w, progressLines[0], progressLines[1])
		hang(r)
	}
	tests := []struct {
		name    string
		handler func(t *testing.T, w http.ResponseWriter, r *http.Request)
		cancel  int // cancel the caller's context after this many progress calls (0 = never)
		want    []engine.PullProgress
		code    string
		msg     string
	}{
		{
			name: "success",
			handler: func(t *testing.T, w http.ResponseWriter, r *http.Request) {
				if r.URL.Path != "/api/pull" {
					t.Errorf("path = %s, want /api/pull", r.URL.Path)
				}
				body := readBody(t, r)
				if got := string(body["model"]); got != `"qwen2.5-coder:7b"` {
					t.Errorf("model = %s", got)
				}
				for _, l := range progressLines {
					writeLines(t, w, l)
				}
				writeLines(t, w, map[string]string{"status": "success"})
			},
			want: []engine.PullProgress{
				{Status: "pulling manifest"},
				{Status: "pulling 6a0746a1ec1a", Total: 4000, Completed: 1000},
				{Status: "pulling 6a0746a1ec1a", Total: 4000, Completed: 4000},
				{Status: "verifying sha256 digest"},
				{Status: "writing manifest"},
				{Status: "success"},
			},
		},
		{
			name: "error line",
			handler: func(t *testing.T, w http.ResponseWriter, r *http.Request) {
				writeLines(t, w, progressLines[0], map[string]string{"error": `pull model manifest: Get "https://registry.ollama.ai/v2/library/qwen2.5-coder/manifests/7b": dial tcp: lookup registry.ollama.ai: no such host`})
			},
			want: []engine.PullProgress{{Status: "pulling manifest"}},
			code: engine.CodeModelMissing, msg: "Ollama could not download qwen2.5-coder:7b: pull model manifest",
		},
		{
			name: "unknown model",
			handler: func(t *testing.T, w http.ResponseWriter, r *http.Request) {
				writeLines(t, w, progressLines[0], map[string]string{"error": "pull model manifest: file does not exist"})
			},
			want: []engine.PullProgress{{Status: "pulling manifest"}},
			code: engine.CodeModelMissing, msg: "is not in the Ollama library",
		},
		{
			name:    "cancelled mid-way",
			handler: stall,
			cancel:  2,
			want:    []engine.PullProgress{{Status: "pulling manifest"}, {Status: "pulling 6a0746a1ec1a", Total: 4000, Completed: 1000}},
			code:    engine.CodeCancelled, msg: "cancelled",
		},
		{
			name:    "stalled",
			handler: stall,
			want:    []engine.PullProgress{{Status: "pulling manifest"}, {Status: "pulling 6a0746a1ec1a", Total: 4000, Completed: 1000}},
			code:    engine.CodeModelMissing, msg: "stalled: no progress for 300ms",
		},
		{
			name: "ends without success",
			handler: func(t *testing.T, w http.ResponseWriter, r *http.Request) {
				writeLines(t, w, progressLines[0])
			},
			want: []engine.PullProgress{{Status: "pulling manifest"}},
			code: engine.CodeLLMUnavailable, msg: "was lost before the download was complete",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := fakeOllama(t, func(w http.ResponseWriter, r *http.Request) { tt.handler(t, w, r) })
			c.pullIdle = 300 * time.Millisecond
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var got []engine.PullProgress
			start := time.Now()
			err := c.Pull(ctx, "qwen2.5-coder:7b", func(p engine.PullProgress) {
				got = append(got, p)
				if len(got) == tt.cancel {
					cancel()
				}
			})
			if elapsed := time.Since(start); elapsed > 2*time.Second {
				t.Errorf("Pull returned after %v, want promptly", elapsed)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("progress = %+v, want %+v", got, tt.want)
			}
			if tt.code == "" {
				if err != nil {
					t.Errorf("Pull: %v", err)
				}
				return
			}
			wantError(t, err, tt.code, tt.msg, "")
		})
	}
}

// The request body of a pull asks for a stream.
func TestPullStreams(t *testing.T) {
	c := fakeOllama(t, func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Stream *bool `json:"stream"`
		}
		json.NewDecoder(r.Body).Decode(&body)
		if body.Stream == nil || !*body.Stream {
			t.Errorf("stream = %v, want true", body.Stream)
		}
		writeLines(t, w, map[string]string{"status": "success"})
	})
	if err := c.Pull(context.Background(), "m", nil); err != nil {
		t.Errorf("Pull: %v", err)
	}
}
