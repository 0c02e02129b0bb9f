package engine

import (
	"context"
	"encoding/json"
	"strings"
	"time"
)

// Message is one message of a chat with a model.
type Message struct {
	Role    string `json:"role"` // system, user or assistant
	Content string `json:"content"`
}

// ChatRequest is one request to a chat model.
type ChatRequest struct {
	Model    string
	Messages []Message
	// Format is a JSON schema the answer must follow (grammar-constrained
	// by Ollama); nil asks for free text.
	Format json.RawMessage
	// Temperature is 0 for the ask loop: the same question gets the same SQL.
	Temperature float64
	// NumCtx is the context window to request, sized to the prompt.
	NumCtx int
	// NumPredict caps the tokens the model may generate.
	NumPredict int
	// OnToken, when set, receives the answer as it streams.
	OnToken func(string)
}

// ChatResponse is a model's complete answer, with what it cost as the
// model server counts it.
type ChatResponse struct {
	Content string
	// PromptTokens is the prompt's length in the model's tokens (Ollama's
	// prompt_eval_count; Ollama 0.17 counts the whole prompt, the prefix it
	// reused from its cache included).
	PromptTokens int
	// OutputTokens is the number of tokens generated (eval_count).
	OutputTokens int
	// Duration is the whole request's wall-clock time, model load included;
	// Load is the time the server spent loading the model (load_duration;
	// 0 when it was loaded already); FirstToken is the time to the first
	// piece of the answer.
	Duration   time.Duration
	Load       time.Duration
	FirstToken time.Duration
	// PromptEval is the time the server spent evaluating the prompt
	// (prompt_eval_duration): short when it reused a cached prefix.
	PromptEval time.Duration
	// DoneReason is why generation stopped ("stop"); an answer cut short
	// ("length") is returned as a model_error, never as an answer.
	DoneReason string
}

// ModelInfo describes an installed model.
type ModelInfo struct {
	Name          string `json:"name"`
	Family        string `json:"family"`
	ParameterSize string `json:"parameter_size"`
	Quantization  string `json:"quantization"`
	SizeBytes     int64  `json:"size_bytes"`
}

// PullProgress reports a model download.
type PullProgress struct {
	Status    string `json:"status"`
	Completed int64  `json:"completed"`
	Total     int64  `json:"total"`
}

// listModelsTimeout bounds listing the installed models.
const listModelsTimeout = 15 * time.Second

// ListModels lists the installed models within listModelsTimeout (Ollama
// answers at once when it runs; a stuck server must not hold a command).
func ListModels(ctx context.Context, m Model) ([]ModelInfo, error) {
	ctx, cancel := context.WithTimeout(ctx, listModelsTimeout)
	defer cancel()
	return m.Models(ctx)
}

// Model is the engine's model port: a local chat model with structured
// output, listing, optional embeddings and downloads. engine/ollama
// implements it over Ollama's API. Every call takes a context with a
// deadline. Errors are *Error values with codes llm_unavailable (not
// running, unreachable, too slow), model_missing (not installed) or
// model_error (an unusable answer).
type Model interface {
	Chat(ctx context.Context, req ChatRequest) (*ChatResponse, error)
	Models(ctx context.Context) ([]ModelInfo, error)
	Embed(ctx context.Context, model string, inputs []string) ([][]float32, error)
	Pull(ctx context.Context, model string, progress func(PullProgress)) error
}

// embeddingFamilies name models that only embed (never chat).
var embeddingFamilies = []string{"nomic-embed", "mxbai-embed", "all-minilm", "bge-", "snowflake-arctic-embed", "embeddinggemma", "granite-embedding"}

// IsEmbeddingModel reports whether a model only makes embeddings.
func IsEmbeddingModel(name string) bool {
	n := strings.ToLower(name)
	for _, f := range embeddingFamilies {
		if strings.HasPrefix(n, f) || strings.Contains(n, "/"+f) {
			return true
		}
	}
	return strings.Contains(n, "embed")
}
