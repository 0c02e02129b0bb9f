package cli

import (
	"flag"
	"os"
	"strings"
	"time"

	"querent/engine"
	"querent/engine/ask"
)

// OpenAIFactory connects to an OpenAI-compatible server (LM Studio,
// llama-server, vLLM, Jan) at baseURL, its API root such as
// http://127.0.0.1:1234/v1, with apiKey ("" → $OPENAI_API_KEY, which may be
// unset), with a deadline for each model request.
type OpenAIFactory func(baseURL, apiKey string, requestTimeout time.Duration) (engine.Model, error)

// llmURLUsage is the --llm-url flag's line.
const llmURLUsage = "an OpenAI-compatible server's API root instead of Ollama, e.g. http://127.0.0.1:1234/v1 (default: $OPENAI_BASE_URL when set; key: $OPENAI_API_KEY)"

// addLLMURLFlag adds --llm-url to a command that talks to a model.
func addLLMURLFlag(fs *flag.FlagSet) *string {
	return fs.String("llm-url", "", llmURLUsage)
}

// connector chooses a command's model server: the OpenAI-compatible
// server of --llm-url, else Ollama when --ollama names it, else the one of
// $OPENAI_BASE_URL when set, else Ollama ($OLLAMA_HOST or its default
// address). The API key is $OPENAI_API_KEY's: a flag would show it in the
// process list and the shell's history.
func (c *CLI) connector(ollamaHost, llmURL string) (ask.Connector, error) {
	llmURL = strings.TrimSpace(llmURL)
	if llmURL != "" && strings.TrimSpace(ollamaHost) != "" {
		return nil, engine.Errorf(engine.CodeUsage, "--ollama and --llm-url name two model servers").WithHint(
			"give one: --ollama for Ollama, --llm-url for an OpenAI-compatible server")
	}
	if llmURL == "" && strings.TrimSpace(ollamaHost) == "" {
		llmURL = strings.TrimSpace(os.Getenv("OPENAI_BASE_URL"))
	}
	if llmURL == "" {
		return ask.Connector(c.Model), nil
	}
	if c.OpenAI == nil {
		return nil, engine.Errorf(engine.CodeInternal, "this build cannot talk to an OpenAI-compatible server").WithHint(
			"use Ollama (leave out --llm-url and unset OPENAI_BASE_URL)")
	}
	return func(_ string, timeout time.Duration) (engine.Model, error) {
		return c.OpenAI(llmURL, "", timeout)
	}, nil
}
