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
	// Think, when not nil, tells a model with the thinking capability
	// whether to think before it answers (Ollama's "think"; an
	// OpenAI-compatible server's reasoning switch where it has one). nil
	// leaves the model's own default, which for thinking models is to
	// think. The ask loop sends false to thinking models unless the
	// analyst turned thinking on.
	Think *bool
	// OnThinking, when set, receives the model's thinking as it streams
	// (Ollama's message.thinking), apart from the answer.
	OnThinking func(string)
}

// Capability names a model may list (ModelInfo.Capabilities), as Ollama's
// /api/show says them.
const (
	CapCompletion = "completion"
	CapTools      = "tools"
	CapThinking   = "thinking"
	CapVision     = "vision"
	CapEmbedding  = "embedding"
)

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
	// Thinking is what a thinking model wrote before its answer (Ollama's
	// message.thinking, or a <think>…</think> block an older build left in
	// the content, which Content then no longer holds). ThinkingTokens is
	// its length in tokens: the server's count when it gives one apart,
	// else an estimate (a token for every four bytes); OutputTokens
	// includes it, as the servers count.
	Thinking       string
	ThinkingTokens int
}

// ModelInfo describes an installed model.
type ModelInfo struct {
	Name          string `json:"name"`
	Family        string `json:"family"`
	ParameterSize string `json:"parameter_size"`
	Quantization  string `json:"quantization"`
	SizeBytes     int64  `json:"size_bytes"`
	// Digest identifies the model's files (Ollama's digest in /api/tags):
	// what a description of the model is cached by.
	Digest string `json:"digest"`
	// ContextLength is the most tokens the model was trained to read at
	// once (its context window, from /api/show's model_info
	// "<architecture>.context_length"); 0 when unknown (Models leaves it
	// 0: Describe fills it).
	ContextLength int `json:"context_length"`
	// Capabilities are what the model can do (CapCompletion, CapTools,
	// CapThinking, CapVision, CapEmbedding); empty when unknown.
	Capabilities []string `json:"capabilities"`
}

// Has reports whether the model lists the capability.
func (m *ModelInfo) Has(capability string) bool {
	if m == nil {
		return false
	}
	for _, c := range m.Capabilities {
		if c == capability {
			return true
		}
	}
	return false
}

// ModelDescriber is an optional part of the model port: a Model that can
// say what one model is (its context window, its capabilities) implements
// it. engine/ollama does, from /api/show, cached per model digest. An
// adapter that cannot returns an error or a ModelInfo with what it knows;
// the engine then keeps its defaults (a 4,096-token floor, no thinking
// switch).
type ModelDescriber interface {
	Describe(ctx context.Context, model string) (*ModelInfo, error)
}

// describeTimeout bounds describing one model (Ollama reads it from disk).
const describeTimeout = 10 * time.Second

// DescribeModel describes the model through m when m is a ModelDescriber;
// nil, nil when it is not.
func DescribeModel(ctx context.Context, m Model, model string) (*ModelInfo, error) {
	d, ok := m.(ModelDescriber)
	if !ok {
		return nil, nil
	}
	ctx, cancel := context.WithTimeout(ctx, describeTimeout)
	defer cancel()
	return d.Describe(ctx, model)
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
