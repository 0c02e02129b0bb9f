// Package mcp is Querent's MCP server (`querent mcp`): other AI agents use
// it as their database tool, with the app's guarantees — every database is
// opened on the guarded read-only path, every query is capped and timed,
// and every call is recorded in the history, tagged with the client's name.
//
// Tools: list_databases, list_tables, describe_table, profile_table, run_query,
// explain_query, list_glossary and ask. Errors come back as tool results with isError set,
// whose text and structured content carry the contract's
// {"errors": [{type, message, hint}]}, so the calling model can repair its
// query. Results are sized for a model's context: a row cap (default 50)
// and a character cap, with a note saying how to get the rest.
package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"querent/engine"
	"querent/engine/ask"
	"querent/engine/glossary"
	"querent/engine/profile"
	"querent/engine/words"
)

// Options tune the server.
type Options struct {
	// MaxRows is the default row cap of run_query (default 50); a call may
	// ask for up to MaxRowsLimit.
	MaxRows      int
	MaxRowsLimit int
	// MaxChars caps the JSON of the rows a tool returns (default 20,000
	// characters, about 5,000 tokens).
	MaxChars int
	// Timeout bounds each query (default 30 s).
	Timeout time.Duration
	// Model connects to Ollama for the ask tool (nil: ask answers
	// llm_unavailable).
	Model func(host string, timeout time.Duration) (engine.Model, error)
	// OllamaHost and ModelName choose Ollama and the model ("" → defaults).
	OllamaHost, ModelName string
	// History records every call (nil: none).
	History engine.History
	// Glossary is the analysts' glossaries (nil: none): list_glossary
	// lists a database's, and ask sends the entries a question uses.
	Glossary *glossary.Glossary
	// Version is Querent's version.
	Version string
	// Drain is how long, once the client has closed its end of the
	// transport, the calls in flight may go on to give their answers
	// before they are cancelled (default 1 s): enough for a script's
	// requests, not for a statement to outlive the client.
	Drain time.Duration
	// Grace is how long a stopping server waits for its cancelled calls to
	// return (default 2 s): the engine stops them within milliseconds
	// (PostgreSQL gets a cancel request, a SQLite worker is cancelled or
	// killed).
	Grace time.Duration
}

func (o Options) withDefaults() Options {
	if o.MaxRows <= 0 {
		o.MaxRows = 50
	}
	if o.MaxRowsLimit <= 0 {
		o.MaxRowsLimit = 1000
	}
	if o.MaxChars <= 0 {
		o.MaxChars = 20_000
	}
	if o.Timeout <= 0 {
		o.Timeout = engine.DefaultTimeout
	}
	if o.Drain <= 0 {
		o.Drain = DefaultDrain
	}
	if o.Grace <= 0 {
		o.Grace = DefaultGrace
	}
	// Whatever the wiring asks, the engine's ceilings hold.
	o.MaxRowsLimit = min(o.MaxRowsLimit, engine.MaxRowsInMemory)
	o.MaxRows = min(o.MaxRows, o.MaxRowsLimit)
	o.Timeout = min(o.Timeout, engine.MaxTimeout)
	return o
}

// The defaults of Options.Drain and Options.Grace.
const (
	DefaultDrain = time.Second
	DefaultGrace = 2 * time.Second
)

// Database is one open database and the name tools call it by.
type Database struct {
	Name string
	DB   engine.Database
}

// Names returns the names list_databases gives: each file's stem, with _2,
// _3… on a collision (the demo is "chinook").
func Names(dbs []engine.Database) []string {
	out := make([]string, len(dbs))
	used := map[string]bool{}
	for i, db := range dbs {
		base := strings.TrimSuffix(filepath.Base(db.Name()), filepath.Ext(db.Name()))
		if !strings.ContainsAny(db.Name(), `/\`) {
			base = "chinook" // the built-in demo
		}
		name := base
		for n := 2; used[strings.ToLower(name)]; n++ {
			name = fmt.Sprintf("%s_%d", base, n)
		}
		used[strings.ToLower(name)] = true
		out[i] = name
	}
	return out
}

// Server is the MCP server over a set of open databases.
type Server struct {
	dbs  []Database
	opts Options

	mu       sync.Mutex
	sessions map[string]*engine.Session // conversations of ask, per database
	askers   map[string]*ask.Asker      // per database and model
	askLocks map[string]*sync.Mutex
	model    engine.Model
	profiles *profile.Cache // profile_table's profiles, per database identity
}

// New returns a server over dbs (already opened, guarded).
func New(dbs []Database, opts Options) *Server {
	return &Server{dbs: dbs, opts: opts.withDefaults(), sessions: map[string]*engine.Session{}, askers: map[string]*ask.Asker{}, askLocks: map[string]*sync.Mutex{}, profiles: profile.NewCache()}
}

// SDK builds the MCP server with the tools.
func (s *Server) SDK() *sdk.Server {
	srv := sdk.NewServer(&sdk.Implementation{Name: "querent", Title: "Querent", Version: s.opts.Version,
		Description: "Read-only, capped and timed access to SQLite and PostgreSQL databases, and questions in plain language answered through a local Ollama model"},
		&sdk.ServerOptions{Instructions: instructions})
	ro := &sdk.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(bool)}
	addTool(srv, &sdk.Tool{Name: "list_databases", Annotations: ro,
		Description: "List the databases this server has open (read-only): their names (use them as `database` in the other tools), files or servers, SQL dialect (sqlite or postgresql), tables, views and warnings."},
		s.listDatabases)
	addTool(srv, &sdk.Tool{Name: "list_tables", Annotations: ro,
		Description: "List the tables and views of a database with their row counts and column counts."},
		s.listTables)
	addTool(srv, &sdk.Tool{Name: "describe_table", Annotations: ro,
		Description: "Describe one table or view: columns (declared type, affinity, NOT NULL, default, primary key), foreign keys, indexes, row count, 3 sample rows and the values of low-cardinality text columns."},
		s.describeTable)
	addTool(srv, &sdk.Tool{Name: "profile_table", Annotations: ro,
		Description: "Profile one table or view, instead of running your own aggregates: its rows, and per column the declared and observed types, NULLs, distinct values, min and max (numbers, dates, text lengths), the top values with counts and a small histogram; its foreign keys and the joins read from its values. Past 200,000 rows the figures come from the first 100,000 rows and say sampled."},
		s.profileTable)
	addTool(srv, &sdk.Tool{Name: "run_query", Annotations: ro,
		Description: "Run one read-only query (SELECT or WITH … SELECT) in the database's dialect (list_databases says which: sqlite or postgresql). The database's own compiler checks it first (SQLite's, or PostgreSQL's parser and a read-only transaction): writes, ATTACH, PRAGMA, SET, locks and dangerous functions are refused with the reason. " +
			"The result is capped (default 50 rows) and timed (30 s); when more rows exist the answer says so: narrow the query or page with LIMIT/OFFSET. Errors name the problem precisely (syntax position, the closest column names) so you can fix the query."},
		s.runQuery)
	addTool(srv, &sdk.Tool{Name: "explain_query", Annotations: ro,
		Description: "Check a query without running it and get query-plan hints: full scans of large tables, missing indexes, temporary sorts, cartesian joins, correlated subqueries."},
		s.explainQuery)
	addTool(srv, &sdk.Tool{Name: "list_glossary", Annotations: ro,
		Description: "List the analyst's glossary of a database: the business's words (\"active customer\", \"churn\"), what each means, other words for it, and the SQL that says it (a condition, an expression or a whole query), checked against the database. " +
			"Use the same words and SQL in your queries. A stale entry (its SQL no longer compiles against the schema) is flagged and should not be used. Agents read the glossary; only the analyst edits it."},
		s.listGlossary)
	addTool(srv, &sdk.Tool{Name: "ask", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: new(bool)},
		Description: "Ask a question in plain language: a local Ollama model writes the SQL, which is checked and run like run_query (repaired up to 3 times). Follow-up questions on the same database continue the conversation. " +
			"Answers unanswerable or clarification_needed when the data cannot answer. Needs Ollama running; otherwise answers llm_unavailable — then use run_query."},
		s.ask)
	return srv
}

const instructions = `Querent gives read-only access to SQLite and PostgreSQL databases. Start with list_databases (it names each database's SQL dialect), then list_tables and describe_table to learn the schema, and list_glossary for the analyst's business words (what "active customer" or "churn" mean here, and their SQL). Use run_query for SQL you write (the database's dialect; one SELECT; results are capped, so aggregate or page with LIMIT/OFFSET), or ask for a question in plain language. Nothing can change a database: writes are refused by the database's own compiler (SQLite's; PostgreSQL's parser, a function allowlist and a read-only transaction).`

// ErrStopped is what Run returns when the calls in flight did not return
// within the grace once cancelled: the server stopped without them.
var ErrStopped = errors.New("the calls in flight did not stop within the grace")

// Run serves the tools on a transport (Stdio for querent mcp) until the
// client ends the session or ctx is cancelled.
//
// Every call in flight ends when the server does: cancelling ctx (querent
// mcp's SIGINT or SIGTERM) cancels them at once; the end of the input (the
// client closed its end) lets them answer for Options.Drain, then cancels
// them — a cancelled statement is stopped on the server (PostgreSQL gets a
// cancel request) rather than left to run until its timeout. Run then
// waits Options.Grace at most for the cancelled calls to return, and
// returns ErrStopped if they did not.
//
// The SDK's own Server.Run does neither: its calls' contexts do not follow
// ctx, and it waits for every call to finish, however long that takes.
func (s *Server) Run(ctx context.Context, t sdk.Transport) error {
	calls, stopCalls := context.WithCancel(context.WithoutCancel(ctx))
	defer stopCalls()
	srv := s.SDK()
	// Each request's context ends when its client cancels it, as the SDK
	// does it, and also when the server stops its calls.
	srv.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			ctx, cancel := context.WithCancel(ctx)
			defer cancel()
			defer context.AfterFunc(calls, cancel)()
			return next(ctx, method, req)
		}
	})
	ss, err := srv.Connect(ctx, t, nil)
	if err != nil {
		return err
	}
	ended := make(<-chan struct{}) // never, for a transport that does not say
	if e, ok := t.(inputEnder); ok {
		ended = e.inputEnded()
	}
	closed := make(chan error, 1)
	go func() { closed <- ss.Wait() }()
	grace := func() error {
		timer := time.NewTimer(s.opts.Grace)
		defer timer.Stop()
		select {
		case err := <-closed:
			return err
		case <-timer.C:
			return ErrStopped
		}
	}
	select {
	case err := <-closed:
		return err
	case <-ctx.Done():
		stopCalls()
		// Close waits for the calls to return, then ends the session.
		go ss.Close()
		if err := grace(); errors.Is(err, ErrStopped) {
			return err
		}
		return ctx.Err()
	case <-ended:
	}
	// The input has ended: the transport holds the session open until the
	// requests it read are answered (so that a script piping its requests
	// gets every answer), but not longer than the drain.
	drain := time.NewTimer(s.opts.Drain)
	defer drain.Stop()
	select {
	case err := <-closed:
		return err
	case <-ctx.Done():
	case <-drain.C:
	}
	stopCalls()
	// The cancelled calls answer (cancelled), and the session ends.
	err = grace()
	if ctx.Err() != nil && !errors.Is(err, ErrStopped) {
		return ctx.Err()
	}
	return err
}

// inputEnder is a transport that says when its client has closed its end
// (Stdio).
type inputEnder interface {
	inputEnded() <-chan struct{}
}

// pick finds the database a call names ("" when exactly one is open).
func (s *Server) pick(name string) (Database, error) {
	if name == "" {
		if len(s.dbs) == 1 {
			return s.dbs[0], nil
		}
		return Database{}, engine.Errorf(engine.CodeUsage, "several databases are open; say which with \"database\"").WithHint(
			"one of: %s (see list_databases)", strings.Join(s.names(), ", "))
	}
	for _, d := range s.dbs {
		if strings.EqualFold(d.Name, name) {
			return d, nil
		}
	}
	return Database{}, engine.Errorf(engine.CodeUsage, "no database named %q is open", name).WithHint(
		"use one of: %s (see list_databases)", strings.Join(s.names(), ", "))
}

func (s *Server) names() []string {
	out := make([]string, len(s.dbs))
	for i, d := range s.dbs {
		out[i] = d.Name
	}
	return out
}

// handler is a tool's typed handler: it returns the result (for isError)
// and the JSON document that becomes its structured content and text.
type handler[In any] func(ctx context.Context, req *sdk.CallToolRequest, in In) (*sdk.CallToolResult, any, error)

// addTool registers a tool whose input schema is inferred from In. Unlike
// the SDK's AddTool, arguments that do not fit the schema come back as the
// contract's structured errors too, so the calling model can fix its call.
func addTool[In any](srv *sdk.Server, tool *sdk.Tool, h handler[In]) {
	schema, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("mcp: the schema of %s: %v", tool.Name, err))
	}
	resolved, err := schema.Resolve(nil)
	if err != nil {
		panic(fmt.Sprintf("mcp: the schema of %s: %v", tool.Name, err))
	}
	tool.InputSchema = schema
	srv.AddTool(tool, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		var (
			res *sdk.CallToolResult
			doc any
			in  In
		)
		args := map[string]any{}
		err := error(nil)
		if raw := req.Params.Arguments; len(raw) > 0 && string(raw) != "null" {
			err = json.Unmarshal(raw, &args)
		}
		if err == nil {
			err = resolved.Validate(args)
		}
		if err == nil {
			b, _ := json.Marshal(args)
			err = json.Unmarshal(b, &in)
		}
		if err != nil {
			res, doc, _ = errorResult(engine.Errorf(engine.CodeUsage, "invalid arguments for %s: %v", tool.Name, err).WithErr(err).WithHint(
				"the arguments are: %s", describeArgs(schema)), nil)
		} else if res, doc, err = h(ctx, req, in); err != nil {
			return nil, err
		}
		if res == nil {
			res = &sdk.CallToolResult{}
		}
		b, err := json.Marshal(doc)
		if err != nil {
			return nil, err
		}
		res.StructuredContent = json.RawMessage(b)
		res.Content = []sdk.Content{&sdk.TextContent{Text: string(b)}}
		return res, nil
	})
}

// describeArgs lists a tool's arguments for a hint: "table (required),
// database".
func describeArgs(schema *jsonschema.Schema) string {
	required := map[string]bool{}
	for _, r := range schema.Required {
		required[r] = true
	}
	names := make([]string, 0, len(schema.Properties))
	for n := range schema.Properties {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		if required[names[i]] != required[names[j]] {
			return required[names[i]]
		}
		return names[i] < names[j]
	})
	var parts []string
	for _, n := range names {
		p := n + " (" + schema.Properties[n].Type
		if required[n] {
			p += ", required"
		}
		parts = append(parts, p+")")
	}
	if len(parts) == 0 {
		return "none: call it with {}"
	}
	return strings.Join(parts, ", ")
}

// errorResult is a tool result with isError set whose text and structured
// content carry {"errors": [{type, message, hint}]}.
func errorResult(err error, extra map[string]any) (*sdk.CallToolResult, any, error) {
	doc := map[string]any{"errors": forAgents([]engine.ErrorDoc{engine.NewErrorDoc(err)})}
	for k, v := range extra {
		doc[k] = v
	}
	return &sdk.CallToolResult{IsError: true}, doc, nil
}

// agent says the engine's words to a calling agent (package words' Agent
// face): its tools and their arguments where the command line has its
// commands and flags ("the model argument", "run_query"), without the
// server's own limits (--timeout), which are the operator's.
var agent = words.Speaker{Lang: "en", Face: words.Agent}

// forAgent is s as an agent reads it.
func forAgent(s words.Sentence) string { return agent.Say(s) }

// forAgents says the messages and hints of errors to a calling agent.
func forAgents(docs []engine.ErrorDoc) []engine.ErrorDoc {
	for i := range docs {
		docs[i].Message = forAgent(docs[i].MessageSentence())
		docs[i].Hint = forAgent(docs[i].HintSentence())
	}
	return docs
}

// rawResult returns a JSON document as the structured result.
func rawResult(v any) (*sdk.CallToolResult, any, error) {
	return nil, v, nil
}

// client names the MCP client of a call, for the history.
func client(req *sdk.CallToolRequest) string {
	if req != nil && req.Session != nil {
		if p := req.Session.InitializeParams(); p != nil && p.ClientInfo != nil && p.ClientInfo.Name != "" {
			return "mcp:" + p.ClientInfo.Name
		}
	}
	return "mcp"
}

// audit records a call in the history.
func (s *Server) audit(ctx context.Context, req *sdk.CallToolRequest, db engine.Database, tool, question, sql string, rows int, d time.Duration, err error, model string) {
	if s.opts.History == nil {
		return
	}
	e := engine.HistoryEntry{Time: time.Now(), Question: question, SQL: sql, Status: "ok", RowCount: rows, DurationS: engine.Seconds(d),
		Model: model, Client: client(req) + " " + tool}
	if db != nil {
		e.Database = db.Name()
		if f, ok := db.(engine.Fingerprinter); ok {
			e.DatabaseSHA256, _ = f.SHA256(ctx)
		}
	}
	if err != nil {
		e.Status = engine.ErrorCode(err)
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	_ = s.opts.History.Record(rctx, e)
}
