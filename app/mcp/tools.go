package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"querent/engine"
	"querent/engine/ask"
	"querent/engine/files"
	"querent/engine/glossary"
	"querent/engine/profile"
	"querent/engine/sensitive"
	"querent/engine/words"
)

// The tools' inputs (their JSON schemas are inferred from these types).

type listDatabasesIn struct{}

type databaseIn struct {
	Database string `json:"database,omitempty" jsonschema:"the database's name from list_databases; optional when only one is open"`
}

type describeIn struct {
	Table    string `json:"table" jsonschema:"the table or view to describe"`
	Database string `json:"database,omitempty" jsonschema:"the database's name from list_databases; optional when only one is open"`
}

type queryIn struct {
	SQL      string `json:"sql" jsonschema:"one read-only SQLite query (SELECT or WITH … SELECT)"`
	Database string `json:"database,omitempty" jsonschema:"the database's name from list_databases; optional when only one is open"`
	MaxRows  int    `json:"max_rows,omitempty" jsonschema:"the most rows to return (default 50, at most 1000); aggregate or page with LIMIT/OFFSET for more"`
}

type explainIn struct {
	SQL      string `json:"sql" jsonschema:"the SQLite query to check and explain"`
	Database string `json:"database,omitempty" jsonschema:"the database's name from list_databases; optional when only one is open"`
}

type askIn struct {
	Question string `json:"question" jsonschema:"a question about the data, in plain language"`
	Database string `json:"database,omitempty" jsonschema:"the database's name from list_databases; optional when only one is open"`
	Model    string `json:"model,omitempty" jsonschema:"the Ollama model to use (default: the best SQL model installed)"`
	// ExplainResults is the sub-agent contract's explain_results: false
	// returns the rows without the model's explanation (one request less).
	ExplainResults *bool `json:"explain_results,omitempty" jsonschema:"false returns the rows without the model's explanation and follow-up questions, saving a model request (default true)"`
	// Vote is the sub-agent contract's vote: false draws no other readings
	// of a doubtful answer (issue 23).
	Vote *bool `json:"vote,omitempty" jsonschema:"false draws no other readings of a doubtful answer, saving up to 4 model requests; its confidence is still said (default true)"`
	// FollowUp and Think are the sub-agent contract's follow_up and think
	// (issues 24, 25).
	FollowUp *bool `json:"follow_up,omitempty" jsonschema:"true reads the question with this database's earlier questions, false on its own; absent, only when it reads as a follow-up (and for 2012?, which of those…)"`
	Think    bool  `json:"think,omitempty" jsonschema:"true lets a thinking model think before it writes the SQL (default: it is told not to)"`
}

func (s *Server) listDatabases(ctx context.Context, req *sdk.CallToolRequest, _ listDatabasesIn) (*sdk.CallToolResult, any, error) {
	start := time.Now()
	type dbOut struct {
		Name string `json:"name"`
		// File is the SQLite file, or the PostgreSQL database as
		// postgres://role@host:port/db (never a password).
		File      string   `json:"file"`
		Dialect   string   `json:"dialect"` // "sqlite" or "postgresql": the SQL to write
		Tables    int      `json:"tables"`
		Views     int      `json:"views"`
		SizeBytes int64    `json:"size_bytes"`
		ReadOnly  bool     `json:"read_only"`
		Warnings  []string `json:"warnings"` // e.g. a PostgreSQL role that may do more than read
	}
	out := []dbOut{}
	for _, d := range s.dbs {
		o := dbOut{Name: d.Name, File: d.DB.Name(), Dialect: d.DB.Dialect(), ReadOnly: true, Warnings: append([]string{}, d.DB.Warnings()...)}
		if path := files.DatabasePath(d.DB); path != "" {
			if st, err := os.Stat(path); err == nil {
				o.SizeBytes = st.Size()
			}
		}
		if sch, err := d.DB.Schema(ctx); err == nil {
			for _, t := range sch.Tables {
				switch {
				case t.Internal:
				case t.Kind == "view":
					o.Views++
				default:
					o.Tables++
				}
			}
		}
		out = append(out, o)
	}
	s.audit(ctx, req, nil, "list_databases", "", "", len(out), time.Since(start), nil, "")
	return rawResult(map[string]any{"databases": out, "errors": []engine.ErrorDoc{}})
}

func (s *Server) listTables(ctx context.Context, req *sdk.CallToolRequest, in databaseIn) (*sdk.CallToolResult, any, error) {
	start := time.Now()
	d, err := s.pick(in.Database)
	if err != nil {
		s.audit(ctx, req, nil, "list_tables", "", "", 0, time.Since(start), err, "")
		return errorResult(err, nil)
	}
	sch, err := d.DB.Schema(ctx)
	s.audit(ctx, req, d.DB, "list_tables", "", "", 0, time.Since(start), err, "")
	if err != nil {
		return errorResult(err, nil)
	}
	type tableOut struct {
		Name              string `json:"name"`
		Kind              string `json:"kind"`
		RowCount          int64  `json:"row_count"`
		RowCountEstimated bool   `json:"row_count_estimated"`
		Columns           int    `json:"columns"`
		Internal          bool   `json:"internal,omitempty"`
	}
	out := []tableOut{}
	for _, t := range sch.Tables {
		out = append(out, tableOut{Name: t.Name, Kind: t.Kind, RowCount: t.RowCount, RowCountEstimated: t.RowCountEstimated, Columns: len(t.Columns), Internal: t.Internal})
	}
	return rawResult(map[string]any{"database": d.Name, "tables": out, "errors": []engine.ErrorDoc{}})
}

func (s *Server) describeTable(ctx context.Context, req *sdk.CallToolRequest, in describeIn) (*sdk.CallToolResult, any, error) {
	start := time.Now()
	d, err := s.pick(in.Database)
	if err == nil {
		var sch *engine.Schema
		if sch, err = d.DB.Schema(ctx); err == nil {
			if t := sch.Table(in.Table); t != nil {
				s.audit(ctx, req, d.DB, "describe_table", in.Table, "", 0, time.Since(start), nil, "")
				// A marked column's samples and distinct values are
				// masked: an agent never gets its values.
				set := sensitive.Of(d.DB)
				return rawResult(map[string]any{"database": d.Name, "table": set.MaskTable(t), "masked_columns": set.MaskedOf(t),
					"errors": []engine.ErrorDoc{}})
			}
			var names []string
			for _, t := range sch.Tables {
				if !t.Internal {
					names = append(names, t.Name)
				}
			}
			err = engine.Errorf(engine.CodeUnknownTable, "no table or view named %q in %s", in.Table, d.Name).WithHint("the tables and views are: %s", joinNames(names))
		}
	}
	s.audit(ctx, req, d.DB, "describe_table", in.Table, "", 0, time.Since(start), err, "")
	return errorResult(err, nil)
}

type profileIn struct {
	Table    string `json:"table" jsonschema:"the table or view to profile"`
	Database string `json:"database,omitempty" jsonschema:"the database's name from list_databases; optional when only one is open"`
}

func (s *Server) profileTable(ctx context.Context, req *sdk.CallToolRequest, in profileIn) (*sdk.CallToolResult, any, error) {
	start := time.Now()
	d, err := s.pick(in.Database)
	if err == nil {
		var p *profile.Database
		if p, err = s.profiles.Profile(ctx, d.DB, profile.Options{Table: in.Table}); err == nil {
			if len(p.Tables) == 1 {
				s.audit(ctx, req, d.DB, "profile_table", in.Table, "", 0, time.Since(start), nil, "")
				t, masked := p.Tables[0].Masked(sensitive.Of(d.DB))
				return rawResult(map[string]any{"database": d.Name, "table": t, "masked_columns": masked, "relationships": p.Relationships,
					"sample_threshold": p.SampleThreshold, "sample_rows": p.SampleRows, "errors": []engine.ErrorDoc{}})
			}
			err = engine.Errorf(engine.CodeTimeout, "the table %s could not be profiled: %s", in.Table, strings.Join(p.Skipped, "; ")).
				WithHint("describe it with describe_table, or run a narrower aggregate with run_query")
		}
	}
	s.audit(ctx, req, d.DB, "profile_table", in.Table, "", 0, time.Since(start), err, "")
	return errorResult(err, nil)
}

func joinNames(ns []string) string {
	if len(ns) > 60 {
		return fmt.Sprintf("%s and %d more", joinNames(ns[:60]), len(ns)-60)
	}
	out := ""
	for i, n := range ns {
		if i > 0 {
			out += ", "
		}
		out += n
	}
	return out
}

func (s *Server) runQuery(ctx context.Context, req *sdk.CallToolRequest, in queryIn) (*sdk.CallToolResult, any, error) {
	start := time.Now()
	d, err := s.pick(in.Database)
	if err != nil {
		s.audit(ctx, req, nil, "run_query", "", in.SQL, 0, time.Since(start), err, "")
		return errorResult(err, nil)
	}
	maxRows := in.MaxRows
	if maxRows <= 0 {
		maxRows = s.opts.MaxRows
	}
	maxRows = min(maxRows, s.opts.MaxRowsLimit)
	// A marked column reads as NULL wherever an agent's SQL reads it
	// (SQLite's authorizer), and the answer is masked.
	ans, err := ask.RunSQL(ctx, d.DB, in.SQL, engine.RunOptions{MaxRows: maxRows, Timeout: s.opts.Timeout,
		Hide: sensitive.Of(d.DB).Columns()})
	ans = sensitive.Masked(ans)
	if err != nil {
		s.audit(ctx, req, d.DB, "run_query", "", in.SQL, 0, time.Since(start), err, "")
		return errorResult(err, map[string]any{"query": in.SQL})
	}
	s.audit(ctx, req, d.DB, "run_query", "", in.SQL, ans.RowCount, time.Since(start), nil, "")
	return rawResult(s.sized(ans, maxRows))
}

// sizedAnswer is the contract's answer plus the note on what was left out.
type sizedAnswer struct {
	*engine.Answer
	// Note says when more rows exist than were returned, and how to get them.
	Note string `json:"note,omitempty"`
}

// sized cuts an answer's rows to the character cap and writes the note.
func (s *Server) sized(ans *engine.Answer, maxRows int) sizedAnswer {
	out := sizedAnswer{Answer: ans}
	cut := false
	for len(ans.Results.Values) > 0 {
		b, _ := json.Marshal(ans.Results)
		if len(b) <= s.opts.MaxChars {
			break
		}
		keep := len(ans.Results.Values) * s.opts.MaxChars / len(b)
		if keep >= len(ans.Results.Values) {
			keep = len(ans.Results.Values) - 1
		}
		ans.Results.Values = ans.Results.Values[:max(keep, 0)]
		cut = true
	}
	ans.RowCount = len(ans.Results.Values)
	switch {
	case cut:
		ans.Truncated = true
		out.Note = fmt.Sprintf("more rows exist: %d rows are shown, cut to fit %d characters. Select fewer or shorter columns, aggregate, or page with LIMIT/OFFSET.",
			ans.RowCount, s.opts.MaxChars)
	case ans.Truncated:
		out.Note = fmt.Sprintf("more than %d rows: only the first %d are shown. Narrow the query (WHERE, aggregate), raise max_rows (at most %d), or page with LIMIT %d OFFSET %d.",
			maxRows, ans.RowCount, s.opts.MaxRowsLimit, maxRows, maxRows)
	}
	return out
}

// listGlossary lists a database's glossary as it stands against its
// schema now (stale entries flagged); read-only, like every tool.
func (s *Server) listGlossary(ctx context.Context, req *sdk.CallToolRequest, in databaseIn) (*sdk.CallToolResult, any, error) {
	start := time.Now()
	d, err := s.pick(in.Database)
	if err != nil {
		s.audit(ctx, req, nil, "list_glossary", "", "", 0, time.Since(start), err, "")
		return errorResult(err, nil)
	}
	entries := []glossary.Status{}
	if s.opts.Glossary != nil {
		entries, err = s.opts.Glossary.List(ctx, d.DB)
	}
	s.audit(ctx, req, d.DB, "list_glossary", "", "", len(entries), time.Since(start), err, "")
	if err != nil {
		return errorResult(err, nil)
	}
	fix := forAgent(words.New("glossary.fix_stale", words.Glossary, words.Glossary))
	for i := range entries {
		if p := entries[i].Problem; p != nil {
			docs := forAgents([]engine.ErrorDoc{*p})
			docs[0].Hint = strings.TrimSpace(docs[0].Hint + " " + fix)
			entries[i].Problem = &docs[0]
		}
	}
	return rawResult(map[string]any{"database": d.Name, "entries": entries, "errors": []engine.ErrorDoc{}})
}

func (s *Server) explainQuery(ctx context.Context, req *sdk.CallToolRequest, in explainIn) (*sdk.CallToolResult, any, error) {
	start := time.Now()
	d, err := s.pick(in.Database)
	if err != nil {
		s.audit(ctx, req, nil, "explain_query", "", in.SQL, 0, time.Since(start), err, "")
		return errorResult(err, nil)
	}
	v, err := d.DB.Validate(ctx, in.SQL)
	if err != nil {
		s.audit(ctx, req, d.DB, "explain_query", "", in.SQL, 0, time.Since(start), err, "")
		return errorResult(err, map[string]any{"query": in.SQL})
	}
	hints, err := d.DB.Explain(ctx, in.SQL)
	s.audit(ctx, req, d.DB, "explain_query", "", in.SQL, 0, time.Since(start), err, "")
	if err != nil {
		return errorResult(err, map[string]any{"query": in.SQL})
	}
	if hints == nil {
		hints = []string{}
	}
	return rawResult(map[string]any{"query": in.SQL, "valid": true, "columns": v.Columns, "tables_used": v.Tables,
		"optimization_hints": hints, "errors": []engine.ErrorDoc{}})
}

func (s *Server) ask(ctx context.Context, req *sdk.CallToolRequest, in askIn) (*sdk.CallToolResult, any, error) {
	start := time.Now()
	d, err := s.pick(in.Database)
	if err != nil {
		s.audit(ctx, req, nil, "ask", in.Question, "", 0, time.Since(start), err, in.Model)
		return errorResult(err, nil)
	}
	asker, err := s.asker(ctx, d, in.Model)
	if err != nil {
		s.audit(ctx, req, d.DB, "ask", in.Question, "", 0, time.Since(start), err, in.Model)
		return errorResult(err, map[string]any{"question": in.Question})
	}
	// One question at a time per database: a conversation is a sequence.
	lock := s.askLock(d.Name)
	lock.Lock()
	defer lock.Unlock()
	s.mu.Lock()
	session := s.sessions[d.Name]
	if session == nil {
		session = &engine.Session{Database: d.DB.Name()}
		s.sessions[d.Name] = session
	}
	s.mu.Unlock()
	// The loop records the question in the history itself.
	ans, err := asker.Ask(ctx, in.Question, session, ask.Options{MaxRows: s.opts.MaxRows, Timeout: s.opts.Timeout, Client: client(req) + " ask",
		NoExplain: in.ExplainResults != nil && !*in.ExplainResults, NoVote: in.Vote != nil && !*in.Vote, Think: in.Think, FollowUp: ask.FollowUpOf(in.FollowUp, ask.FollowUpAuto),
		ForAgent: true})
	ans = sensitive.Masked(ans)
	ans.Errors = forAgents(ans.Errors)
	out := s.sized(ans, s.opts.MaxRows)
	if err != nil {
		return &sdk.CallToolResult{IsError: true}, out, nil
	}
	return rawResult(out)
}

// askLock returns the mutex that serialises the questions on a database.
func (s *Server) askLock(name string) *sync.Mutex {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.askLocks[name]
	if l == nil {
		l = &sync.Mutex{}
		s.askLocks[name] = l
	}
	return l
}

// asker returns the model loop for a database (one per database, so that
// its value index is built once).
func (s *Server) asker(ctx context.Context, d Database, model string) (*ask.Asker, error) {
	if s.opts.Model == nil {
		return nil, engine.Errorf(engine.CodeLLMUnavailable, "this server cannot reach a model").WithHint("use run_query with SQL instead")
	}
	srv, err := ask.Connect(ctx, ask.Connector(s.connect), s.opts.OllamaHost, ask.RequestTimeout)
	if err != nil {
		e := engine.AsError(err)
		if e.Code == engine.CodeLLMUnavailable {
			e.Hint = "start Ollama (open the Ollama app, or run `ollama serve`), or point querent mcp at it with --ollama or OLLAMA_HOST; meanwhile, use run_query with SQL"
		} else {
			e.SayHint(words.Seq(e.HintSentence(), words.Value("; meanwhile, use run_query with SQL")))
		}
		return nil, e
	}
	if model == "" {
		model = s.opts.ModelName
	}
	name, err := srv.Pick(model)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	key := d.Name + "\x00" + name
	a := s.askers[key]
	if a == nil {
		a = srv.Asker(d.DB, name, s.opts.History)
		if dir, err := files.DataDir(); err == nil {
			// The joins read from the values, without those the analyst
			// dropped (querent relationships), as join hints.
			a.Joins = &profile.Joins{Dir: dir}
		}
		if s.opts.Glossary != nil {
			a.Glossary = s.opts.Glossary
		}
		s.askers[key] = a
	}
	return a, nil
}

// connect returns the server's one model client, made on first use (a
// client holds its connections; every ask shares it).
func (s *Server) connect(host string, timeout time.Duration) (engine.Model, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.model == nil {
		m, err := s.opts.Model(host, timeout)
		if err != nil {
			return nil, err
		}
		s.model = m
	}
	return s.model, nil
}
