package page

import (
	"context"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"querent/engine"
	"querent/engine/ask"
	"querent/engine/files"
	"querent/engine/profile"
	"querent/engine/words"
)

// Ask answers questions with the model, and tells how Ollama is doing.
type Ask struct{ a *app }

// OllamaStatus is what the page shows next to the model picker.
type OllamaStatus struct {
	Running bool `json:"running"`
	// Kind is the model server's API: "ollama" (downloads in the picker)
	// or "openai" (an OpenAI-compatible server: its models, no downloads).
	Kind string `json:"kind"`
	// Host is the address in use (http://127.0.0.1:11434), and HostSource
	// where it comes from: "settings", "OLLAMA_HOST", "OPENAI_BASE_URL" or
	// "default".
	Host       string             `json:"host"`
	HostSource string             `json:"host_source"`
	Models     []engine.ModelInfo `json:"models"`      // chat models installed
	Model      string             `json:"model"`       // the one questions will use ("" if none)
	EmbedModel string             `json:"embed_model"` // used for schema pruning, if any
	// Problem and Fix say what is wrong and what to do, when something is.
	Problem string `json:"problem"`
	Fix     string `json:"fix"`
	Code    string `json:"code"`
}

// Status asks Ollama which models are installed and which would be used.
func (q *Ask) Status() (*OllamaStatus, error) {
	set := q.a.settings()
	ms := q.a.modelServer(set)
	st := &OllamaStatus{Kind: ms.kind, Host: set.OllamaHost, HostSource: "settings", Models: []engine.ModelInfo{}}
	switch {
	case ms.kind == kindOpenAI:
		st.Host, st.HostSource = ms.url, ms.source
	case set.OllamaHost == "":
		st.Host, st.HostSource = strings.Trim(strings.TrimSpace(os.Getenv("OLLAMA_HOST")), "\"'"), "OLLAMA_HOST"
		if st.Host == "" {
			st.HostSource = "default"
		}
	}
	connect := q.a.connector(set)
	if connect == nil || q.a.deps.Model == nil && ms.kind == kindOllama {
		st.Problem, st.Fix, st.Code = "this build cannot talk to the model server", "", engine.CodeInternal
		return st, nil
	}
	m, err := connect(set.OllamaHost, ask.StatusTimeout)
	if err != nil {
		e := engine.AsError(err)
		st.Problem, st.Fix, st.Code = e.Message, e.Hint, e.Code
		return st, nil
	}
	if h, ok := m.(interface{ Host() string }); ok {
		st.Host = h.Host() // as the client reads it: http://host:port
	}
	ctx, cancel := context.WithTimeout(context.Background(), ask.StatusTimeout)
	defer cancel()
	models, err := m.Models(ctx)
	if err != nil {
		e := engine.AsError(err)
		st.Problem, st.Fix, st.Code = e.Message, e.Hint, e.Code
		return st, nil
	}
	st.Running = true
	for _, mi := range models {
		if !engine.IsEmbeddingModel(mi.Name) {
			st.Models = append(st.Models, describedModel(ctx, m, st.Host, mi))
		}
	}
	st.EmbedModel = ask.PickEmbeddingModel(models)
	name, err := ask.PickModel(models, set.Model)
	if err != nil {
		e := engine.AsError(err)
		st.Problem, st.Fix, st.Code = e.Message, e.Hint, e.Code
		return st, nil
	}
	st.Model = name
	return st, nil
}

// described caches the models' descriptions by server, name and digest:
// the page asks for the status each time its panel opens, with a new
// client (and a model of the same name and digest elsewhere may be
// described otherwise).
var described sync.Map

// describedModel is mi with its window and capabilities (Ollama's
// /api/show, read once per model digest); mi as listed when the server
// cannot say.
func describedModel(ctx context.Context, m engine.Model, host string, mi engine.ModelInfo) engine.ModelInfo {
	key := host + "\x00" + mi.Name + "\x00" + mi.Digest
	if v, ok := described.Load(key); ok && mi.Digest != "" {
		d := v.(engine.ModelInfo)
		mi.ContextLength, mi.Capabilities = d.ContextLength, append([]string{}, d.Capabilities...)
		return mi
	}
	info, err := engine.DescribeModel(ctx, m, mi.Name)
	if err != nil || info == nil {
		return mi
	}
	mi.ContextLength, mi.Capabilities = info.ContextLength, info.Capabilities
	if mi.ParameterSize == "" {
		mi.ParameterSize = info.ParameterSize
	}
	described.Store(key, mi)
	return mi
}

// Question asks a question of the open database with the model (progress
// events "ask:progress"; Cancel stops it). The answer always comes back,
// with its attempts and, when it failed, its errors; the error return is
// only for a question that could not be asked at all.
func (q *Ask) Question(question string) (*engine.Answer, error) {
	return q.question(question, false, "")
}

// QuestionWith is Question with the analyst's follow-up choice: "" (or
// "auto": read with the conversation's earlier questions only when it
// reads as a follow-up), "yes" (a follow-up chip: always) or "no" (on its
// own; the conversation starts anew from it).
func (q *Ask) QuestionWith(question, followUp string) (*engine.Answer, error) {
	return q.question(question, false, followUp)
}

// AsQuestion asks text with the model even when it compiles as SQL (the
// page's "Ask as a question" on an answer that ran the text as SQL, a
// clarification's answer).
func (q *Ask) AsQuestion(question string) (*engine.Answer, error) {
	return q.question(question, true, "")
}

func (q *Ask) question(question string, asked bool, followUp string) (*engine.Answer, error) {
	db, err := q.a.current()
	if err != nil {
		return nil, err
	}
	q.a.cancel("count") // a count of the previous result would hold this one up
	ctx, done := q.a.begin("ask")
	defer done()
	set := q.a.settings()
	if !asked && ask.IsSQL(ctx, db, question) {
		// SQL typed in the question box runs as SQL, without a model; a
		// sentence that starts with "Select" is a question (ask.IsSQL).
		return pageAnswer(runAnswer(ctx, db, question, set.MaxRows, set.timeout(), q.a)), nil
	}
	asker, ans := q.asker(ctx, db, set, question)
	if ans != nil {
		return pageAnswer(ans), nil
	}
	q.a.mu.Lock()
	session := q.a.session
	q.a.mu.Unlock()
	rows := func(a *engine.Answer) {
		rows := *a // the loop goes on writing into a (the votes, the explanation)
		rows.Errors = append([]engine.ErrorDoc(nil), a.Errors...)
		rows.Warnings = append([]string(nil), a.Warnings...)
		rows.WarningWords = append([]words.Sentence(nil), a.WarningWords...)
		rows.Attempts = append([]engine.Attempt(nil), a.Attempts...)
		if a.Confidence != nil {
			c := *a.Confidence
			rows.Confidence = &c
		}
		q.a.emit(EventAskRows, pageAnswer(&rows))
	}
	ans, _ = asker.Ask(ctx, question, session, ask.Options{MaxRows: set.MaxRows, Timeout: set.timeout(), Client: "app",
		NoExplain: set.SkipExplanation, NoVote: set.SkipVotes, FollowUp: followUp, Think: slices.Contains(set.ThinkingModels, asker.ModelName),
		Progress: func(p ask.Progress) { q.a.emit(EventAskProgress, p) },
		// The rows as soon as they are there, and again once the votes
		// are counted (the majority's result, the alternatives).
		OnRows: rows, OnVotes: rows})
	return pageAnswer(ans), nil
}

// asker returns the Asker for the open database and the chosen model, or
// an answer carrying the reason there is none (Ollama down, no model).
func (q *Ask) asker(ctx context.Context, db engine.Database, set SettingsData, question string) (*ask.Asker, *engine.Answer) {
	fail := func(err error) *engine.Answer {
		ans := engine.NewAnswer("")
		ans.Question = &question
		ans.AddError(err)
		return ans
	}
	srv, err := ask.Connect(ctx, q.a.connector(set), set.OllamaHost, ask.RequestTimeout)
	if err != nil {
		return nil, fail(err)
	}
	name, err := srv.Pick(set.Model)
	if err != nil {
		return nil, fail(err)
	}
	h := q.a.historyStore(ctx)
	g := q.a.glossary(ctx)
	q.a.mu.Lock()
	defer q.a.mu.Unlock()
	if q.a.asker == nil || q.a.asker.DB != db || q.a.asker.ModelName != name {
		// A new Asker for a new database or model; the same one otherwise,
		// so that its index of the stored values is built once.
		q.a.asker = srv.Asker(db, name, nil)
		if dir, err := files.DataDir(); err == nil {
			q.a.asker.Joins = &profile.Joins{Dir: dir}
		}
	}
	q.a.asker.Model = srv.Model
	q.a.asker.History = h
	q.a.asker.Glossary = nil
	if g != nil {
		q.a.asker.Glossary = g
	}
	return q.a.asker, nil
}

// Cancel stops the question being answered.
func (q *Ask) Cancel() error {
	q.a.cancel("ask")
	return nil
}

// NewConversation forgets the previous questions (follow-ups start anew).
func (q *Ask) NewConversation() error {
	q.a.mu.Lock()
	defer q.a.mu.Unlock()
	if q.a.db != nil {
		q.a.session = &engine.Session{Database: q.a.db.Name()}
	}
	return nil
}

// Context is the conversation's earlier questions, oldest first: what a
// question that reads as a follow-up is read with.
func (q *Ask) Context() ([]engine.Turn, error) {
	q.a.mu.Lock()
	defer q.a.mu.Unlock()
	if q.a.session == nil {
		return []engine.Turn{}, nil
	}
	return append([]engine.Turn{}, q.a.session.Turns...), nil
}

// DropContext takes the earlier question asked at time (a turn's time, as
// Context gives it) out of the conversation, before the next question, and
// returns what is left.
func (q *Ask) DropContext(at time.Time) ([]engine.Turn, error) {
	q.a.mu.Lock()
	if s := q.a.session; s != nil {
		kept := s.Turns[:0]
		for _, t := range s.Turns {
			if !t.Time.Equal(at) {
				kept = append(kept, t)
			}
		}
		s.Turns = kept
	}
	q.a.mu.Unlock()
	return q.Context()
}

// RestoreContext makes turns the conversation of the open database (a
// thread the page restored after a reload, or on switching back to a
// database); a reload without a restored thread starts a fresh one.
func (q *Ask) RestoreContext(turns []engine.Turn) error {
	q.a.mu.Lock()
	defer q.a.mu.Unlock()
	if q.a.db == nil {
		return engine.Errorf(engine.CodeUsage, "no database is open").WithHint("open a database first")
	}
	s := &engine.Session{Database: q.a.db.Name()}
	for _, t := range turns {
		if strings.TrimSpace(t.Question) != "" {
			s.Add(t)
		}
	}
	q.a.session = s
	return nil
}

// PullModel downloads a model (progress events "model:pull"; CancelPull
// stops it).
func (q *Ask) PullModel(name string) error {
	name = strings.TrimSpace(name)
	if name == "" {
		name = ask.DefaultPullModel
	}
	set := q.a.settings()
	connect := q.a.connector(set)
	if connect == nil {
		return engine.Errorf(engine.CodeInternal, "this build cannot talk to a model server")
	}
	m, err := connect(set.OllamaHost, 0)
	if err != nil {
		return err
	}
	ctx, done := q.a.begin("pull")
	defer done()
	return m.Pull(ctx, name, func(p engine.PullProgress) { q.a.emit(EventModelPull, p) })
}

// CancelPull stops a download.
func (q *Ask) CancelPull() error {
	q.a.cancel("pull")
	return nil
}
