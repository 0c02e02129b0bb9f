// Package openaitest is a scriptable fake OpenAI-compatible server for
// tests (what LM Studio, llama-server, vLLM and Jan serve under /v1): each
// chat completion gets the next reply of a script, streamed as server-sent
// events (or as one JSON document when the request does not stream), with
// usage and finish_reason; it lists its models, makes embeddings, and can
// be slow, hang, ask for an API key or not know a model. Every request is
// recorded. It listens on 127.0.0.1 and stops with the test.
//
// Its replies are ollamatest's (Reply, Answer, Explain, Abstain), so that
// a test of the ask loop reads the same over either server.
package openaitest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"querent/engine"
	"querent/engine/ollama/ollamatest"
)

// Reply is one scripted answer (ollamatest's): Content streamed in small
// chunks, DoneReason as finish_reason ("" is "stop"), Status and Error an
// HTTP error instead, Delay held back before the answer (Hang: until the
// client goes away).
type Reply = ollamatest.Reply

// Hang is a Delay that outlasts any test: the reply waits until the client
// disconnects.
const Hang = time.Hour

// charsPerToken is the fake's tokenizer, as in ollamatest.
const charsPerToken = 4

// Request is a recorded chat completion request.
type Request struct {
	Model    string           `json:"model"`
	Messages []engine.Message `json:"messages"`
	// Format is response_format.json_schema.schema (nil when not asked).
	Format         json.RawMessage `json:"-"`
	Stream         bool            `json:"stream"`
	IncludeUsage   bool            `json:"-"`
	Temperature    *float64        `json:"temperature"`
	MaxTokens      int             `json:"max_tokens"`
	ResponseFormat *struct {
		Type       string `json:"type"`
		JSONSchema *struct {
			Name   string          `json:"name"`
			Schema json.RawMessage `json:"schema"`
		} `json:"json_schema"`
	} `json:"response_format"`
	StreamOptions *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
	// Authorization is the request's Authorization header.
	Authorization string `json:"-"`
	// Raw is the body as sent.
	Raw string `json:"-"`
}

// Server is a running fake.
type Server struct {
	// URL is the API root, http://127.0.0.1:PORT/v1.
	URL     string
	t       testing.TB
	mu      sync.Mutex
	script  []Reply
	reqs    []Request
	models  []string
	respond func(Request) Reply
	key     string
	noEmbed bool
	noUsage bool
	rate    float64
	next    int
	last    Reply
	// started gets a value when a chat request arrives; gone is closed
	// when a chat's client went away before its answer was complete.
	started  chan struct{}
	gone     chan struct{}
	goneOnce sync.Once
	paths    []string
}

// New starts a fake that answers chats with the script, in order, and lists
// models (default: qwen2.5-coder-7b-instruct and nomic-embed-text).
func New(t testing.TB, script ...Reply) *Server {
	s := &Server{t: t, script: script, models: []string{"qwen2.5-coder-7b-instruct", "nomic-embed-text"},
		started: make(chan struct{}, 64), gone: make(chan struct{})}
	srv := httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(srv.Close)
	s.URL = srv.URL + "/v1"
	return s
}

// SetModels replaces the models the fake lists (and knows: a chat naming
// another gets 404, as from vLLM).
func (s *Server) SetModels(names ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.models = names
}

// RequireKey makes every request without "Authorization: Bearer key" get
// 401.
func (s *Server) RequireKey(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.key = key
}

// NoEmbeddings makes /v1/embeddings unknown (404), as on servers without it.
func (s *Server) NoEmbeddings() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.noEmbed = true
}

// NoUsage leaves usage out of the answers, as some servers do.
func (s *Server) NoUsage() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.noUsage = true
}

// SetRate makes every answer stream at tokens per second.
func (s *Server) SetRate(tokensPerSecond float64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rate = tokensPerSecond
}

// Respond answers every chat past the script with f.
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

// Paths returns "METHOD /path Authorization" for every request received,
// in order.
func (s *Server) Paths() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.paths...)
}

// Started receives a value when a chat request arrives.
func (s *Server) Started() <-chan struct{} { return s.started }

// Gone is closed once a chat's client went away (cancelled, timed out)
// before its answer was complete.
func (s *Server) Gone() <-chan struct{} { return s.gone }

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.paths = append(s.paths, r.Method+" "+r.URL.Path+" "+r.Header.Get("Authorization"))
	key := s.key
	s.mu.Unlock()
	if key != "" && r.Header.Get("Authorization") != "Bearer "+key {
		writeError(w, http.StatusUnauthorized, "Invalid API Key", "invalid_request_error", "invalid_api_key")
		return
	}
	switch r.URL.Path {
	case "/v1/models":
		s.list(w)
	case "/v1/embeddings":
		s.embed(w, r)
	case "/v1/chat/completions":
		s.chat(w, r)
	default:
		http.NotFound(w, r)
	}
}

func writeError(w http.ResponseWriter, status int, msg, typ string, code any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": msg, "type": typ, "code": code}})
}

func (s *Server) list(w http.ResponseWriter) {
	s.mu.Lock()
	data := []map[string]any{}
	for _, m := range s.models {
		data = append(data, map[string]any{"id": m, "object": "model", "created": 1764633600, "owned_by": "openaitest"})
	}
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data})
}

// embed makes a small vector per input, from its text (as ollamatest).
func (s *Server) embed(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	off := s.noEmbed
	s.mu.Unlock()
	if off {
		http.NotFound(w, r)
		return
	}
	var req struct {
		Model string   `json:"model"`
		Input []string `json:"input"`
	}
	json.NewDecoder(r.Body).Decode(&req)
	data := []map[string]any{}
	for i, in := range req.Input {
		data = append(data, map[string]any{"object": "embedding", "index": i,
			"embedding": []float32{float32(len(in) % 7), 1, float32(strings.Count(in, "a"))}})
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": req.Model})
}

func (s *Server) chat(w http.ResponseWriter, r *http.Request) {
	var req Request
	var raw strings.Builder
	if err := json.NewDecoder(teeReader{r.Body, &raw}).Decode(&req); err != nil {
		s.t.Errorf("openaitest: a chat request that is not JSON: %v", err)
	}
	req.Raw, req.Authorization = raw.String(), r.Header.Get("Authorization")
	if req.ResponseFormat != nil && req.ResponseFormat.JSONSchema != nil {
		req.Format = req.ResponseFormat.JSONSchema.Schema
	}
	req.IncludeUsage = req.StreamOptions != nil && req.StreamOptions.IncludeUsage
	explain := strings.Contains(string(req.Format), `"explanation"`)
	s.mu.Lock()
	s.reqs = append(s.reqs, req)
	known := slices.Contains(s.models, req.Model)
	rate, noUsage := s.rate, s.noUsage
	rep, respond := s.nextReply(explain)
	s.mu.Unlock()
	select {
	case s.started <- struct{}{}:
	default:
	}
	if !known {
		writeError(w, http.StatusNotFound, fmt.Sprintf("The model `%s` does not exist.", req.Model), "NotFoundError", 404)
		return
	}
	if respond != nil {
		rep = respond(req)
	}
	if !explain {
		s.mu.Lock()
		s.last = rep
		s.mu.Unlock()
	}
	if rep.Delay > 0 {
		select {
		case <-time.After(rep.Delay):
		case <-r.Context().Done():
			s.goneOnce.Do(func() { close(s.gone) })
			return
		}
	}
	if rep.Status != 0 {
		writeError(w, rep.Status, rep.Error, "server_error", nil)
		return
	}
	prompt := 0
	for _, m := range req.Messages {
		prompt += len(m.Role) + len(m.Content) + 2
	}
	u := usage{prompt: max(1, prompt/charsPerToken), include: req.IncludeUsage && !noUsage}
	if !req.Stream {
		whole(w, req.Model, rep, u)
		return
	}
	if !s.stream(w, r, req.Model, rep, rate, u) {
		s.goneOnce.Do(func() { close(s.gone) })
	}
}

type usage struct {
	prompt  int
	include bool
}

type teeReader struct {
	r interface{ Read([]byte) (int, error) }
	b *strings.Builder
}

func (t teeReader) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	t.b.Write(p[:n])
	return n, err
}

// nextReply takes a chat's reply from the script, as ollamatest does: an
// explanation request takes a reply meant for one, or else explains the
// last answer. s.mu is held.
func (s *Server) nextReply(explain bool) (rep Reply, respond func(Request) Reply) {
	rep = Reply{Status: 500, Error: "openaitest: the script has no more replies"}
	respond = s.respond
	switch {
	case explain && s.next < len(s.script) && s.script[s.next].ForExplain:
		rep, respond = s.script[s.next], nil
		s.next++
	case explain:
		rep, respond = Reply{Content: ollamatest.ExplainAnswer(s.last.Explanation, s.last.FollowUps...)}, nil
		if s.last.Explanation == "" {
			rep.Content = ollamatest.ExplainAnswer("It answers the question.")
		}
	case s.next < len(s.script):
		rep, respond = s.script[s.next], nil
		s.next++
	}
	return rep, respond
}

func reason(rep Reply) string {
	if rep.DoneReason == "" {
		return "stop"
	}
	return rep.DoneReason
}

// whole answers a request that does not stream with one chat.completion.
func whole(w http.ResponseWriter, model string, rep Reply, u usage) {
	doc := map[string]any{"id": "chatcmpl-fake", "object": "chat.completion", "model": model,
		"choices": []map[string]any{{"index": 0, "message": map[string]string{"role": "assistant", "content": rep.Content},
			"finish_reason": reason(rep)}}}
	// Not streamed, the usage always comes (as from every server).
	out := max(1, len(rep.Content)/charsPerToken)
	doc["usage"] = map[string]int{"prompt_tokens": u.prompt, "completion_tokens": out, "total_tokens": u.prompt + out}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(doc)
}

// stream streams rep as server-sent events: a first event with the role,
// the content in small chunks (at rate tokens per second when set), an
// event with finish_reason, the usage event when asked for, then [DONE].
// It reports whether the client stayed to the end.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, model string, rep Reply, rate float64, u usage) bool {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	flusher, _ := w.(http.Flusher)
	send := func(v any) bool {
		b, _ := json.Marshal(v)
		if _, err := fmt.Fprintf(w, "data: %s\n\n", b); err != nil {
			return false
		}
		if flusher != nil {
			flusher.Flush()
		}
		return r.Context().Err() == nil
	}
	ev := func(delta map[string]string, finish any) map[string]any {
		return map[string]any{"id": "chatcmpl-fake", "object": "chat.completion.chunk", "model": model,
			"choices": []map[string]any{{"index": 0, "delta": delta, "finish_reason": finish}}}
	}
	if !send(ev(map[string]string{"role": "assistant", "content": ""}, nil)) {
		return false
	}
	fmt.Fprint(w, ": keep-alive\n\n")
	runes := []rune(rep.Content)
	chunk := 7
	var tick *time.Ticker
	if rate > 0 {
		chunk = charsPerToken
		tick = time.NewTicker(time.Duration(float64(time.Second) / rate))
		defer tick.Stop()
	}
	generated := 0
	for len(runes) > 0 {
		if tick != nil {
			select {
			case <-tick.C:
			case <-r.Context().Done():
				return false
			}
		}
		n := min(chunk, len(runes))
		if !send(ev(map[string]string{"content": string(runes[:n])}, nil)) {
			return false
		}
		runes = runes[n:]
		generated++
	}
	if !send(ev(map[string]string{}, reason(rep))) {
		return false
	}
	if u.include {
		if !send(map[string]any{"id": "chatcmpl-fake", "object": "chat.completion.chunk", "model": model, "choices": []any{},
			"usage": map[string]int{"prompt_tokens": u.prompt, "completion_tokens": max(generated, 1), "total_tokens": u.prompt + max(generated, 1)}}) {
			return false
		}
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
	return true
}
