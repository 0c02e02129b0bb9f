package ollama

import (
	"context"
	"strings"
	"time"

	"github.com/ollama/ollama/api"

	"querent/engine"
)

// Version returns the Ollama server's version (GET /api/version), bounded
// by 10 s. A nil error means Ollama is running at Host: UIs use it for
// their "Ollama running" indicator.
func (c *Client) Version(ctx context.Context) (string, error) {
	callCtx, cancel := withLimit(ctx, c.listTO)
	defer cancel()
	v, err := c.api.Version(callCtx)
	if err != nil {
		return "", c.fail(ctx, callCtx, call{kind: "version", limit: c.listTO}, err)
	}
	return v, nil
}

// Models lists the installed models (GET /api/tags), bounded by 10 s, in
// Ollama's order (most recently changed first). Embedding-only models are
// included: ask.IsEmbeddingModel tells them apart.
func (c *Client) Models(ctx context.Context) ([]engine.ModelInfo, error) {
	callCtx, cancel := withLimit(ctx, c.listTO)
	defer cancel()
	lr, err := c.api.List(callCtx)
	if err != nil {
		return nil, c.fail(ctx, callCtx, call{kind: "list", limit: c.listTO}, err)
	}
	out := make([]engine.ModelInfo, 0, len(lr.Models))
	for _, m := range lr.Models {
		name := m.Name
		if name == "" {
			name = m.Model
		}
		out = append(out, engine.ModelInfo{
			Name:          name,
			Family:        m.Details.Family,
			ParameterSize: m.Details.ParameterSize,
			Quantization:  m.Details.QuantizationLevel,
			SizeBytes:     m.Size,
			Digest:        m.Digest,
			Capabilities:  []string{},
		})
		c.noteDigest(name, m.Digest)
	}
	return out, nil
}

// described is a cached description: the model's digest when it was read.
type described struct {
	digest string
	info   engine.ModelInfo
}

// noteDigest forgets a cached description whose model changed (another
// digest under the same name: a new pull, an ollama create).
func (c *Client) noteDigest(name, digest string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if d, ok := c.shown[name]; ok && digest != "" && d.digest != "" && d.digest != digest {
		delete(c.shown, name)
	}
	if digest != "" {
		c.digests[name] = digest
	}
}

// Describe says what one model is (POST /api/show, bounded by 10 s): its
// context window (model_info's "<architecture>.context_length"), its
// capabilities (completion, tools, thinking, vision, embedding), its
// family, parameter size and quantization. It is read once per model and
// cached by the model's digest: listing the models (Models) forgets a
// description whose digest changed, and so does a Pull of the model. A
// model that is not installed is a model_missing error.
func (c *Client) Describe(ctx context.Context, model string) (*engine.ModelInfo, error) {
	if strings.TrimSpace(model) == "" {
		return nil, engine.Errorf(engine.CodeUsage, "no model was named to describe").WithHint(
			"name one, for example qwen2.5-coder:7b")
	}
	c.mu.Lock()
	d, ok := c.shown[model]
	c.mu.Unlock()
	if ok {
		info := d.info
		info.Capabilities = append([]string{}, d.info.Capabilities...)
		return &info, nil
	}
	callCtx, cancel := withLimit(ctx, c.listTO)
	defer cancel()
	sr, err := c.api.Show(callCtx, &api.ShowRequest{Model: model})
	if err != nil {
		return nil, c.fail(ctx, callCtx, call{kind: "show", model: model, limit: c.listTO}, err)
	}
	info := engine.ModelInfo{
		Name:          model,
		Family:        sr.Details.Family,
		ParameterSize: sr.Details.ParameterSize,
		Quantization:  sr.Details.QuantizationLevel,
		ContextLength: contextLength(sr.ModelInfo),
		Capabilities:  []string{},
	}
	for _, cp := range sr.Capabilities {
		info.Capabilities = append(info.Capabilities, string(cp))
	}
	c.mu.Lock()
	c.shown[model] = described{digest: c.digests[model], info: info}
	c.mu.Unlock()
	out := info
	out.Capabilities = append([]string{}, info.Capabilities...)
	return &out, nil
}

// contextLength reads the context window from /api/show's model_info: the
// key "<general.architecture>.context_length", else any key ending in
// ".context_length" (0 when there is none).
func contextLength(mi map[string]any) int {
	num := func(v any) int {
		switch x := v.(type) {
		case float64:
			return int(x)
		case int:
			return x
		case int64:
			return int(x)
		}
		return 0
	}
	if arch, ok := mi["general.architecture"].(string); ok {
		if n := num(mi[arch+".context_length"]); n > 0 {
			return n
		}
	}
	best := 0
	for k, v := range mi {
		if strings.HasSuffix(k, ".context_length") {
			best = max(best, num(v))
		}
	}
	return best
}

// Embed returns one vector per input (POST /api/embed), in input order,
// bounded by 60 s. No inputs make no request. A model Ollama cannot embed
// with gives the error Ollama gives (model_missing or model_error).
func (c *Client) Embed(ctx context.Context, model string, inputs []string) ([][]float32, error) {
	if len(inputs) == 0 {
		return [][]float32{}, nil
	}
	if strings.TrimSpace(model) == "" {
		return nil, engine.Errorf(engine.CodeUsage, "no embedding model was chosen").WithHint(
			"install one, for example: ollama pull nomic-embed-text")
	}
	cl := call{kind: "embed", model: model, limit: c.embedTO}
	callCtx, cancel := withLimit(ctx, c.embedTO)
	defer cancel()
	resp, err := c.api.Embed(callCtx, &api.EmbedRequest{
		Model:     model,
		Input:     inputs,
		KeepAlive: &api.Duration{Duration: keepAlive},
	})
	if err != nil {
		return nil, c.fail(ctx, callCtx, cl, err)
	}
	if len(resp.Embeddings) != len(inputs) {
		return nil, engine.Errorf(engine.CodeModelError, "the model %s returned %d embeddings for %d inputs",
			model, len(resp.Embeddings), len(inputs)).WithHint("try again, or choose another embedding model")
	}
	for i, v := range resp.Embeddings {
		if len(v) == 0 {
			return nil, engine.Errorf(engine.CodeModelError, "the model %s returned an empty embedding for input %d", model, i+1).WithHint(
				"choose an embedding model, for example: ollama pull nomic-embed-text")
		}
	}
	return resp.Embeddings, nil
}

// Pull downloads a model (POST /api/pull), calling progress, when set,
// with each progress line Ollama sends ("pulling manifest", per-layer
// "pulling <digest>" with Completed/Total bytes, "verifying sha256
// digest", "writing manifest", "success"). It returns once Ollama reports
// success. There is no overall time limit (a model is gigabytes), but a
// download that sends no progress for 3 minutes is ended; cancelling ctx
// ends it at once (Ollama keeps the parts already downloaded and resumes
// from them next time). Failures are model_missing errors with Ollama's
// reason.
func (c *Client) Pull(ctx context.Context, model string, progress func(engine.PullProgress)) error {
	if strings.TrimSpace(model) == "" {
		return engine.Errorf(engine.CodeUsage, "no model was named to download").WithHint(
			"name one, for example qwen2.5-coder:7b")
	}
	cl := call{kind: "pull", model: model, limit: c.pullIdle}
	callCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	// The watchdog ends the call when progress stops; each line resets it.
	idle := time.AfterFunc(c.pullIdle, func() { cancel(errTimedOut) })
	defer idle.Stop()

	stream := true
	success := false
	err := c.api.Pull(callCtx, &api.PullRequest{Model: model, Stream: &stream}, func(p api.ProgressResponse) error {
		idle.Reset(c.pullIdle)
		if p.Status == "success" {
			success = true
		}
		if progress != nil {
			progress(engine.PullProgress{Status: p.Status, Completed: p.Completed, Total: p.Total})
		}
		return nil
	})
	if err != nil || !success {
		return c.fail(ctx, callCtx, cl, err)
	}
	c.mu.Lock()
	delete(c.shown, model)
	c.mu.Unlock()
	return nil
}
