package ask

import (
	"strings"

	"querent/engine"
)

// preferredModels are SQL-capable model families, best first: the default
// model is the first installed one that matches (by name prefix).
var preferredModels = []string{
	"qwen2.5-coder", "qwen3-coder", "sqlcoder", "duckdb-nsql", "deepseek-coder-v2", "qwen3", "qwen2.5",
	"codellama", "llama3.3", "llama3.2", "llama3.1", "llama3", "mistral-nemo", "mistral", "gemma3", "gemma2", "phi4", "phi3",
}

// DefaultPullModel is the model to download when the user asks for one
// without naming it: good at SQL, and small enough for a laptop.
const DefaultPullModel = "qwen2.5-coder:7b"

// PickModel chooses the chat model to use: want when given (it must be
// installed), else the first installed model of the preference list, else
// the first installed chat model. The errors say what to do next.
func PickModel(installed []engine.ModelInfo, want string) (string, error) {
	has := func(name string) (string, bool) {
		for _, m := range installed {
			if m.Name == name || strings.TrimSuffix(m.Name, ":latest") == name {
				return m.Name, true
			}
		}
		return "", false
	}
	if want != "" {
		if n, ok := has(want); ok {
			return n, nil
		}
		return "", engine.Errorf(engine.CodeModelMissing, "the model %s is not installed in Ollama", want).WithHint(
			"download it with: ollama pull %s (or choose an installed one: %s)", want, installedList(installed))
	}
	for _, p := range preferredModels {
		for _, m := range installed {
			if strings.HasPrefix(strings.ToLower(m.Name), p) && !engine.IsEmbeddingModel(m.Name) {
				return m.Name, nil
			}
		}
	}
	for _, m := range installed {
		if !engine.IsEmbeddingModel(m.Name) {
			return m.Name, nil
		}
	}
	return "", engine.Errorf(engine.CodeModelMissing, "no chat model is installed in Ollama").WithHint(
		"download one that writes SQL well, for example: ollama pull qwen2.5-coder:7b (about 4.7 GB), or the smaller qwen2.5-coder:3b")
}

// PickEmbeddingModel returns the first installed embedding model, or "".
func PickEmbeddingModel(installed []engine.ModelInfo) string {
	for _, m := range installed {
		if engine.IsEmbeddingModel(m.Name) {
			return m.Name
		}
	}
	return ""
}

func installedList(ms []engine.ModelInfo) string {
	var names []string
	for _, m := range ms {
		if !engine.IsEmbeddingModel(m.Name) {
			names = append(names, m.Name)
		}
	}
	if len(names) == 0 {
		return "none is installed"
	}
	return strings.Join(names, ", ")
}
