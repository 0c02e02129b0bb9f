package openai

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"

	"querent/engine"
)

// Models lists the models the server offers (GET /v1/models), bounded by
// 10 s, sorted by name. The API gives only each model's id: the family,
// size and quantization Ollama reports stay empty. Embedding-only models
// are included: engine.IsEmbeddingModel tells them apart by name.
func (c *Client) Models(ctx context.Context) ([]engine.ModelInfo, error) {
	cl := call{kind: "list", limit: c.listTO}
	callCtx, cancel := withLimit(ctx, c.listTO)
	defer cancel()
	resp, err := c.get(callCtx, "/models")
	if err != nil {
		return nil, c.fail(ctx, callCtx, cl, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, c.fail(ctx, callCtx, cl, readStatus(resp))
	}
	var doc struct {
		Data *[]struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&doc); err != nil {
		return nil, c.fail(ctx, callCtx, cl, fmt.Errorf("reading the model list: %w", err))
	}
	if doc.Data == nil {
		return nil, c.notCompatible("GET /models", `no "data" list`, nil)
	}
	out := make([]engine.ModelInfo, 0, len(*doc.Data))
	for _, m := range *doc.Data {
		if strings.TrimSpace(m.ID) != "" {
			out = append(out, engine.ModelInfo{Name: m.ID})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Embed returns one vector per input (POST /v1/embeddings), in input
// order, bounded by 60 s. No inputs make no request. A server without the
// endpoint gives a model_error that says so.
func (c *Client) Embed(ctx context.Context, model string, inputs []string) ([][]float32, error) {
	if len(inputs) == 0 {
		return [][]float32{}, nil
	}
	if strings.TrimSpace(model) == "" {
		return nil, engine.Errorf(engine.CodeUsage, "no embedding model was chosen").WithHint(
			"serve an embedding model (for example nomic-embed-text) on the model server")
	}
	cl := call{kind: "embed", model: model, limit: c.embedTO}
	callCtx, cancel := withLimit(ctx, c.embedTO)
	defer cancel()
	resp, err := c.post(callCtx, "/embeddings", map[string]any{"model": model, "input": inputs})
	if err != nil {
		return nil, c.fail(ctx, callCtx, cl, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, c.fail(ctx, callCtx, cl, readStatus(resp))
	}
	var doc struct {
		Data []struct {
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&doc); err != nil {
		return nil, c.fail(ctx, callCtx, cl, fmt.Errorf("reading the embeddings: %w", err))
	}
	if len(doc.Data) != len(inputs) {
		return nil, engine.Errorf(engine.CodeModelError, "the model %s returned %d embeddings for %d inputs",
			model, len(doc.Data), len(inputs)).WithHint("try again, or choose another embedding model")
	}
	out := make([][]float32, len(inputs))
	for i, d := range doc.Data {
		at := d.Index
		if at < 0 || at >= len(out) || out[at] != nil {
			at = i
		}
		if len(d.Embedding) == 0 {
			return nil, engine.Errorf(engine.CodeModelError, "the model %s returned an empty embedding for input %d", model, at+1).WithHint(
				"choose an embedding model, for example nomic-embed-text")
		}
		out[at] = d.Embedding
	}
	return out, nil
}

// Pull cannot download: downloads are Ollama's. It returns a model_missing
// error that says how to get the model on the server instead.
func (c *Client) Pull(ctx context.Context, model string, progress func(engine.PullProgress)) error {
	return engine.Errorf(engine.CodeModelMissing, "Querent downloads models only into Ollama; the model server at %s is not Ollama", c.base).WithHint(
		"get %s on that server (LM Studio: lms get; llama.cpp: llama-server -hf REPO or -m FILE.gguf; vLLM: vllm serve NAME), or drop --llm-url to use Ollama",
		modelOr(model)).WithErr(errNoPull)
}

var errNoPull = fmt.Errorf("openai: no downloads over the OpenAI-compatible API")

func modelOr(model string) string {
	if strings.TrimSpace(model) == "" {
		return "the model"
	}
	return model
}
