// Package ollamatest is a scriptable fake Ollama server for tests: each chat
// request gets the next reply of a script, streamed the way Ollama streams
// (one JSON object per line), and every request is recorded so that tests
// can read the prompts. It listens on 127.0.0.1 and stops with the test.
package ollamatest

import (
	"encoding/json"
	"fmt"
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
	// Explanation and FollowUps answer the explanation request that follows
	// an answered query (Answer sets them), without taking a reply from the
	// script.
	Explanation string
	FollowUps   []string
	// ForExplain marks a reply meant for an explanation request (Explain):
	// the next explanation request takes it from the script.
	ForExplain bool
	// Thinking is what a thinking model (a Spec with CapThinking) thinks
	// before its content, streamed in message.thinking the way Ollama
	// streams it, unless the request said think: false (Ollama then
	// drops it). A model without the capability asked to think gets
	// Ollama's 400 error.
	Thinking string
}

// Spec is what /api/show says of one model: its context window (0: the
// show answer has no context length) and its capabilities (nil:
// completion). A model with a window also reads no more than it, as
// Ollama does: a prompt longer than the smaller of num_ctx and the window
// is cut to it, and prompt_eval_count says so.
type Spec struct {
	ContextLength int
	Capabilities  []string
	// Architecture names model_info's keys (default "qwen2"); Digest is
	// the digest /api/tags lists (default one made from the name).
	Architecture string
	Digest       string
	// Reads, when set, is the window the server really reads, whatever
	// /api/show says and num_ctx asks (a server started with a smaller
	// context, which /api/show does not tell): longer prompts are cut to it.
	Reads int
}

// The fake counts as Ollama does, at about four characters a token: a
// token is four characters of the answer, and a prompt's tokens are its
// characters divided by four. Like Ollama, it evaluates only the part of a
// prompt after the prefix it shares with the previous request (the cache),
// and it "loads" the model (reporting a load_duration) on the first request
// and whenever the model or its num_ctx changes. Like Ollama 0.17, it
// reports the whole prompt as prompt_eval_count; the time it reports for
// the prompt (a millisecond a token) is that of the part it evaluated.
const charsPerToken = 4

// Request is a recorded chat request.
type Request struct {
	Model    string           `json:"model"`
	Messages []engine.Message `json:"messages"`
	Format   json.RawMessage  `json:"format"`
	Options  map[string]any   `json:"options"`
	// Think is the request's think switch (nil when it sent none).
	Think *bool `json:"think"`
}

// NumCtx is the request's num_ctx option (0 when it sent none).
func (r Request) NumCtx() int {
	n, _ := r.Options["num_ctx"].(float64)
	return int(n)
}

// Server is a running fake.
type Server struct {
	URL    string
	t      testing.TB
	mu     sync.Mutex
	script []Reply
	reqs   []Request
	models []string
	specs  map[string]Spec
	shows  int
	// respond answers the chats past the script, when set.
	respond func(Request) Reply
	// rate is the tokens per second the answers stream at (0: at once).
	rate float64
	// loaded is the model and num_ctx loaded; prev the last prompt.
	loaded, prev string
	loads        int
	// next is the script's next reply; last the last reply to a first request.
	next int
	last Reply
}

// SetRate makes every answer stream at tokens per second (a laptop's 7B
// model writes 5–15), one token every 1/rate seconds.
func (s *Server) SetRate(tokensPerSecond float64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rate = tokensPerSecond
}

// Loads is how many times the fake "loaded" a model.
func (s *Server) Loads() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.loads
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

// SetSpec says what /api/show answers for one model, and makes the fake
// read prompts the way that model would (see Spec).
func (s *Server) SetSpec(model string, spec Spec) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.specs == nil {
		s.specs = map[string]Spec{}
	}
	s.specs[model] = spec
}

// Shows is how many /api/show requests the fake answered.
func (s *Server) Shows() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.shows
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

// Answer is a reply with the SQL of the ask loop's first request, in the
// order of its schema; the explanation request that follows it gets
// explanation and followUps.
func Answer(sql, explanation string, followUps ...string) Reply {
	if followUps == nil {
		followUps = []string{}
	}
	return Reply{Content: SQLAnswer(sql), Explanation: explanation, FollowUps: followUps}
}

// SQLAnswer is the JSON text of a first answer holding sql.
func SQLAnswer(sql string) string {
	b, _ := json.Marshal(sql)
	return `{"sql":` + string(b) + `,"clarification_question":"","unanswerable_reason":""}`
}

// Explain is a reply for an explanation request, taken from the script.
func Explain(explanation string, followUps ...string) Reply {
	return Reply{Content: ExplainAnswer(explanation, followUps...), ForExplain: true}
}

// ExplainAnswer is the JSON text of an explanation.
func ExplainAnswer(explanation string, followUps ...string) string {
	if followUps == nil {
		followUps = []string{}
	}
	e, _ := json.Marshal(explanation)
	f, _ := json.Marshal(followUps)
	return `{"explanation":` + string(e) + `,"follow_up_questions":` + string(f) + `}`
}

// Abstain is a reply that asks for clarification or says the question
// cannot be answered.
func Abstain(clarification, unanswerable string) Reply {
	b, _ := json.Marshal(map[string]any{"sql": "", "clarification_question": clarification, "unanswerable_reason": unanswerable})
	return Reply{Content: string(b)}
}

// isExplain reports whether a request asks for an explanation (its format
// schema has an explanation property).
func isExplain(req Request) bool {
	return strings.Contains(string(req.Format), `"explanation"`)
}

// serve answers the part of Ollama's API that Querent uses.
func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/api/tags":
		s.tags(w)
	case "/api/pull":
		s.pull(w, r)
	case "/api/version":
		json.NewEncoder(w).Encode(map[string]string{"version": "0.17.4"})
	case "/api/embed":
		embed(w, r)
	case "/api/chat":
		s.chat(w, r)
	case "/api/show":
		s.show(w, r)
	default:
		http.NotFound(w, r)
	}
}

// tags lists the installed models.
func (s *Server) tags(w http.ResponseWriter) {
	s.mu.Lock()
	var ms []map[string]any
	for _, m := range s.models {
		ms = append(ms, map[string]any{"name": m, "model": m, "size": 1000, "digest": s.specs[m].digest(m),
			"details": map[string]any{"family": "qwen2", "parameter_size": "7.6B", "quantization_level": "Q4_K_M"}})
	}
	s.mu.Unlock()
	json.NewEncoder(w).Encode(map[string]any{"models": ms})
}

// digest is the model's digest as /api/tags lists it.
func (sp Spec) digest(name string) string {
	if sp.Digest != "" {
		return sp.Digest
	}
	return fmt.Sprintf("sha256:%x", []byte(name))
}

// show describes an installed model as Ollama 0.17 does: details,
// model_info (its architecture and context length) and capabilities.
func (s *Server) show(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Model string `json:"model"`
	}
	json.NewDecoder(r.Body).Decode(&req)
	s.mu.Lock()
	s.shows++
	installed := false
	for _, m := range s.models {
		installed = installed || m == req.Model
	}
	sp := s.specs[req.Model]
	s.mu.Unlock()
	if !installed {
		w.WriteHeader(http.StatusNotFound)
		json.NewEncoder(w).Encode(map[string]string{"error": fmt.Sprintf("model '%s' not found", req.Model)})
		return
	}
	arch := sp.Architecture
	if arch == "" {
		arch = "qwen2"
	}
	info := map[string]any{"general.architecture": arch, "general.parameter_count": 7615616512}
	if sp.ContextLength > 0 {
		info[arch+".context_length"] = sp.ContextLength
	}
	caps := sp.Capabilities
	if caps == nil {
		caps = []string{engine.CapCompletion}
	}
	json.NewEncoder(w).Encode(map[string]any{
		"details":      map[string]any{"family": arch, "parameter_size": "7.6B", "quantization_level": "Q4_K_M"},
		"model_info":   info,
		"capabilities": caps,
	})
}

// thinks reports whether the spec lists the thinking capability.
func (sp Spec) thinks() bool {
	for _, c := range sp.Capabilities {
		if c == engine.CapThinking {
			return true
		}
	}
	return false
}

// pull "pulls" a model, streaming its progress, and installs it; a model
// named no-such-… does not exist.
func (s *Server) pull(w http.ResponseWriter, r *http.Request) {
	enc := json.NewEncoder(w)
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
}

// embed answers an embedding request with a small vector per input, made
// from its text so that equal texts embed the same.
func embed(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Input []string `json:"input"`
	}
	json.NewDecoder(r.Body).Decode(&req)
	embs := [][]float32{}
	for _, in := range req.Input {
		embs = append(embs, []float32{float32(len(in) % 7), 1, float32(strings.Count(in, "a"))})
	}
	json.NewEncoder(w).Encode(map[string]any{"embeddings": embs})
}

// chat records a chat request and answers it with its reply (nextReply),
// held back by the reply's Delay, then streamed.
func (s *Server) chat(w http.ResponseWriter, r *http.Request) {
	var req Request
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		s.t.Errorf("ollamatest: a chat request that is not JSON: %v", err)
	}
	explain := isExplain(req)
	s.mu.Lock()
	s.reqs = append(s.reqs, req)
	sp := s.specs[req.Model]
	c := s.evaluate(req, sp)
	rate := s.rate
	rep, respond := s.nextReply(explain)
	s.mu.Unlock()
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
			return
		}
	}
	if rep.Status == 0 && req.Think != nil && *req.Think && !sp.thinks() {
		rep = Reply{Status: http.StatusBadRequest, Error: fmt.Sprintf("%q does not support thinking", req.Model)}
	}
	if rep.Status != 0 {
		w.WriteHeader(rep.Status)
		json.NewEncoder(w).Encode(map[string]string{"error": rep.Error})
		return
	}
	if !sp.thinks() || (req.Think != nil && !*req.Think) {
		rep.Thinking = ""
	}
	stream(w, r, req.Model, rep, rate, c)
}

// cost is what a chat request's prompt costs, as Ollama reports it.
type cost struct {
	whole     int           // the prompt's tokens
	evaluated int           // the tokens past the prefix the previous request shares
	load      time.Duration // the model's load, when it was (re)loaded
}

// evaluate counts req's prompt against the previous one (the cache), and
// "loads" the model when the model or its num_ctx changed, which empties
// the cache. A prompt longer than what the model reads (the smaller of
// num_ctx and its window, when it has one) is cut to it, as Ollama cuts
// it: prompt_eval_count is then that length. s.mu is held.
func (s *Server) evaluate(req Request, sp Spec) cost {
	prompt := ""
	for _, m := range req.Messages {
		prompt += m.Role + "\x00" + m.Content + "\x00"
	}
	shared := 0
	for shared < len(prompt) && shared < len(s.prev) && prompt[shared] == s.prev[shared] {
		shared++
	}
	load := time.Duration(0)
	if key := fmt.Sprint(req.Model, req.Options["num_ctx"]); key != s.loaded {
		s.loaded, shared, load = key, 0, 1500*time.Millisecond
		s.loads++
	}
	s.prev = prompt
	c := cost{whole: max(1, len(prompt)/charsPerToken), evaluated: max(1, (len(prompt)-shared)/charsPerToken), load: load}
	limit := req.NumCtx()
	if sp.ContextLength > 0 && (limit == 0 || limit > sp.ContextLength) {
		limit = sp.ContextLength
	}
	if sp.Reads > 0 && (limit == 0 || limit > sp.Reads) {
		limit = sp.Reads
	}
	if limit > 0 && c.whole > limit {
		c.whole, c.evaluated = limit, min(c.evaluated, limit)
	}
	return c
}

// nextReply takes a chat's reply from the script: for an explanation
// request (explain), a reply meant for one, or else the explanation of the
// last answer; otherwise the next reply. When the script has none, respond
// is the Respond function to ask (nil: the reply is an error). s.mu is held.
func (s *Server) nextReply(explain bool) (rep Reply, respond func(Request) Reply) {
	rep = Reply{Status: 500, Error: "ollamatest: the script has no more replies"}
	respond = s.respond
	switch {
	case explain && s.next < len(s.script) && s.script[s.next].ForExplain:
		rep, respond = s.script[s.next], nil
		s.next++
	case explain:
		rep, respond = Reply{Content: ExplainAnswer(s.last.Explanation, s.last.FollowUps...)}, nil
		if s.last.Explanation == "" {
			rep.Content = ExplainAnswer("It answers the question.")
		}
	case s.next < len(s.script):
		rep, respond = s.script[s.next], nil
		s.next++
	}
	return rep, respond
}

// stream streams rep's content as Ollama does, in small chunks (at rate
// tokens per second when set: a token a tick), then the last object with
// the counts and durations (c).
func stream(w http.ResponseWriter, r *http.Request, model string, rep Reply, rate float64, c cost) {
	enc := json.NewEncoder(w)
	runes := []rune(rep.Content)
	chunk := 7
	var tick *time.Ticker
	if rate > 0 {
		chunk = charsPerToken
		tick = time.NewTicker(time.Duration(float64(time.Second) / rate))
		defer tick.Stop()
	}
	flusher, _ := w.(http.Flusher)
	generated := 0
	for th := []rune(rep.Thinking); len(th) > 0; {
		n := min(chunk, len(th))
		enc.Encode(map[string]any{"model": model, "message": map[string]string{"role": "assistant", "content": "", "thinking": string(th[:n])}, "done": false})
		th = th[n:]
		generated++
	}
	for len(runes) > 0 {
		if tick != nil {
			select {
			case <-tick.C:
			case <-r.Context().Done():
				return
			}
		}
		n := min(chunk, len(runes))
		enc.Encode(map[string]any{"model": model, "message": map[string]string{"role": "assistant", "content": string(runes[:n])}, "done": false})
		if flusher != nil {
			flusher.Flush()
		}
		runes = runes[n:]
		generated++
	}
	reason := rep.DoneReason
	if reason == "" {
		reason = "stop"
	}
	enc.Encode(map[string]any{"model": model, "message": map[string]string{"role": "assistant", "content": ""}, "done": true,
		"done_reason": reason, "prompt_eval_count": c.whole, "prompt_eval_duration": int64(c.evaluated) * int64(time.Millisecond),
		"eval_count": max(generated, 1), "load_duration": int64(c.load)})
}
