package ask

import (
	"context"
	"time"

	"querent/engine"
)

// The named timeouts of talking to a model server.
const (
	// RequestTimeout bounds one model request of the ask loop by default
	// (a 7B model on a laptop CPU needs tens of seconds for a long prompt).
	RequestTimeout = 120 * time.Second
	// StatusTimeout bounds the requests that only ask the server what it
	// has: a running server answers them at once.
	StatusTimeout = 10 * time.Second
	// DraftTimeout bounds one request of drafting a gold set, which asks
	// for many questions in one answer.
	DraftTimeout = 10 * time.Minute
)

// Connector reaches a model server at host, each request bounded by
// timeout (engine/ollama's New, behind the faces' wiring).
type Connector func(host string, timeout time.Duration) (engine.Model, error)

// Server is a model server reached and asked what it has installed: the
// one way every face (command line, app, MCP, eval) gets to a model.
type Server struct {
	// Model is the connection.
	Model engine.Model
	// Installed lists the installed models.
	Installed []engine.ModelInfo
}

// Connect reaches the model server and lists its models, within
// StatusTimeout for the listing. Its errors say what to do next
// (llm_unavailable: start Ollama; …).
func Connect(ctx context.Context, connect Connector, host string, timeout time.Duration) (*Server, error) {
	if connect == nil {
		return nil, engine.Errorf(engine.CodeInternal, "this build cannot talk to a model server")
	}
	if timeout <= 0 {
		timeout = RequestTimeout
	}
	m, err := connect(host, timeout)
	if err != nil {
		return nil, err
	}
	installed, err := engine.ListModels(ctx, m)
	if err != nil {
		return nil, err
	}
	return &Server{Model: m, Installed: installed}, nil
}

// Pick chooses the chat model: want when it is installed, else the best
// installed one for SQL (PickModel).
func (s *Server) Pick(want string) (string, error) { return PickModel(s.Installed, want) }

// Embedding is the installed embedding model, "" when there is none.
func (s *Server) Embedding() string { return PickEmbeddingModel(s.Installed) }

// Refresh lists the installed models again (after a download).
func (s *Server) Refresh(ctx context.Context) error {
	installed, err := engine.ListModels(ctx, s.Model)
	if err == nil {
		s.Installed = installed
	}
	return err
}

// Asker builds the ask loop for db with the chat model name and the
// installed embedding model; h (may be nil) records the questions.
func (s *Server) Asker(db engine.Database, name string, h engine.History) *Asker {
	return &Asker{DB: db, Model: s.Model, ModelName: name, EmbedModel: s.Embedding(), History: h}
}

// Ready connects, picks want (or the best model) and builds the Asker: the
// whole way from a host to a ready loop, for the faces that need no more.
func Ready(ctx context.Context, connect Connector, host string, timeout time.Duration, want string, db engine.Database, h engine.History) (*Asker, error) {
	s, err := Connect(ctx, connect, host, timeout)
	if err != nil {
		return nil, err
	}
	name, err := s.Pick(want)
	if err != nil {
		return nil, err
	}
	return s.Asker(db, name, h), nil
}
