// Package ollamatest is a scriptable fake Ollama server for tests: each chat
// request gets the next reply of a script, streamed the way Ollama streams
// (one JSON object per line), and every request is recorded so that tests
// can read the prompts. It listens on 127.0.0.1 and stops with the test.
package ollamatest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"querent/engine"
)

// Reply is one scripted answer to a chat request.
type Reply struct {
	// Content is the model's text, streamed in small chunks.
	Content string
	// DoneReason is why generation stopped ("" means "stop").
	DoneReason string
	// Status, when not 0, answers with this HTTP status and Error instead.
	Status int
	Error  string
	// Delay holds the answer back (the request's cancellation ends it).
	Delay time.Duration
}

// Request is a recorded chat request.
type Request struct {
	Model    string           `json:"model"`
	Messages []engine.Message `json:"messages"`
	Format   json.RawMessage  `json:"format"`
	Options  map[string]any   `json:"options"`
}

// Server is a running fake.
type Server struct {
	URL    string
	t      testing.TB
	mu     sync.Mutex
	script []Reply
	reqs   []Request
	models []string
	// respond answers the chats past the script, when set.
	respond func(Request) Reply
}

// New starts a fake that answers chats with the script, in order, and lists
// models (default: qwen2.5-coder:7b and nomic-embed-text:latest).
func New(t testing.TB, script ...Reply) *Server {
	s := &Server{t: t, script: script, models: []string{"qwen2.5-coder:7b", "nomic-embed-text:latest"}}
	srv := httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}

// SetModels replaces the installed models the fake lists.
func (s *Server) SetModels(names ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.models = names
}

// Respond answers every chat request past the script with f (a fake that
// answers by the question, say), instead of an error.
func (s *Server) Respond(f func(Request) Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.respond = f
}

// Requests returns the chat requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// Answer is a reply holding the structured answer of design.md.
func Answer(sql, explanation string, followUps ...string) Reply {
	if followUps == nil {
		followUps = []string{}
	}
	b, _ := json.Marshal(map[string]any{"sql": sql, "explanation": explanation, "follow_up_questions": followUps,
		"clarification_question": "", "unanswerable_reason": ""})
	return Reply{Content: string(b)}
}

// Abstain is a reply that asks for clarification or says the question
// cannot be answered.
func Abstain(clarification, unanswerable string) Reply {
	b, _ := json.Marshal(map[string]any{"sql": "", "explanation": "", "follow_up_questions": []string{},
		"clarification_question": clarification, "unanswerable_reason": unanswerable})
	return Reply{Content: string(b)}
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	enc := json.NewEncoder(w)
	switch r.URL.Path {
	case "/api/tags":
		s.mu.Lock()
		var ms []map[string]any
		for _, m := range s.models {
			ms = append(ms, map[string]any{"name": m, "model": m, "size": 1000, "details": map[string]any{"family": "qwen2"}})
		}
		s.mu.Unlock()
		enc.Encode(map[string]any{"models": ms})
	case "/api/pull":
		var req struct {
			Model string `json:"model"`
			Name  string `json:"name"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		name := req.Model
		if name == "" {
			name = req.Name
		}
		if strings.HasPrefix(name, "no-such-") {
			w.WriteHeader(http.StatusInternalServerError)
			enc.Encode(map[string]string{"error": "pull model manifest: file does not exist"})
			return
		}
		enc.Encode(map[string]any{"status": "pulling manifest"})
		for _, done := range []int64{0, 400, 800, 1000} {
			enc.Encode(map[string]any{"status": "pulling 1a2b3c", "digest": "sha256:1a2b3c", "total": 1000, "completed": done})
		}
		enc.Encode(map[string]any{"status": "success"})
		s.mu.Lock()
		s.models = append(s.models, name)
		s.mu.Unlock()
	case "/api/version":
		enc.Encode(map[string]string{"version": "0.17.4"})
	case "/api/embed":
		var req struct {
			Input []string `json:"input"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		embs := [][]float32{}
		for _, in := range req.Input {
			embs = append(embs, []float32{float32(len(in) % 7), 1, float32(strings.Count(in, "a"))})
		}
		enc.Encode(map[string]any{"embeddings": embs})
	case "/api/chat":
		var req Request
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			s.t.Errorf("ollamatest: a chat request that is not JSON: %v", err)
		}
		s.mu.Lock()
		i := len(s.reqs)
		s.reqs = append(s.reqs, req)
		rep := Reply{Status: 500, Error: "ollamatest: the script has no more replies"}
		respond := s.respond
		if i < len(s.script) {
			rep, respond = s.script[i], nil
		}
		s.mu.Unlock()
		if respond != nil {
			rep = respond(req)
		}
		if rep.Delay > 0 {
			select {
			case <-time.After(rep.Delay):
			case <-r.Context().Done():
				return
			}
		}
		if rep.Status != 0 {
			w.WriteHeader(rep.Status)
			enc.Encode(map[string]string{"error": rep.Error})
			return
		}
		runes := []rune(rep.Content)
		for len(runes) > 0 {
			n := min(7, len(runes))
			enc.Encode(map[string]any{"model": req.Model, "message": map[string]string{"role": "assistant", "content": string(runes[:n])}, "done": false})
			runes = runes[n:]
		}
		reason := rep.DoneReason
		if reason == "" {
			reason = "stop"
		}
		enc.Encode(map[string]any{"model": req.Model, "message": map[string]string{"role": "assistant", "content": ""}, "done": true,
			"done_reason": reason, "prompt_eval_count": 900, "eval_count": 40})
	default:
		http.NotFound(w, r)
	}
}
