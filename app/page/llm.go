package page

import (
	"os"
	"strings"
	"time"

	"querent/engine"
	"querent/engine/ask"
)

// Server kinds of OllamaStatus.Kind.
const (
	kindOllama = "ollama"
	kindOpenAI = "openai"
)

// modelServer is the model server the settings choose: an OpenAI-compatible
// server when they name one (LLMURL), else Ollama at OllamaHost, else the
// server of $OPENAI_BASE_URL when set, else Ollama ($OLLAMA_HOST or its
// default address).
type modelServer struct {
	kind   string
	url    string // the OpenAI-compatible server's API root ("" for Ollama)
	source string // where url comes from: "settings" or "OPENAI_BASE_URL"
}

func (a *app) modelServer(set SettingsData) modelServer {
	switch {
	case set.LLMURL != "":
		return modelServer{kind: kindOpenAI, url: set.LLMURL, source: "settings"}
	case set.OllamaHost == "":
		if u := strings.TrimSpace(os.Getenv("OPENAI_BASE_URL")); u != "" {
			return modelServer{kind: kindOpenAI, url: u, source: "OPENAI_BASE_URL"}
		}
	}
	return modelServer{kind: kindOllama}
}

// connector connects to the settings' model server. The API key is the
// settings' (else $OPENAI_API_KEY's): it goes to the client and nowhere
// else.
func (a *app) connector(set SettingsData) ask.Connector {
	ms := a.modelServer(set)
	if ms.kind == kindOllama {
		return ask.Connector(a.deps.Model)
	}
	if a.deps.OpenAI == nil {
		return nil
	}
	return func(_ string, timeout time.Duration) (engine.Model, error) {
		return a.deps.OpenAI(ms.url, set.APIKey, timeout)
	}
}
