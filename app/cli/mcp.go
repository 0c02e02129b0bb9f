package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"querent/app/mcp"
	"querent/engine"
	"querent/engine/glossary"
)

const mcpUsage = `Usage: querent mcp --db FILE|URL [--db FILE|URL...] [--model NAME] [--ollama HOST]
                   [--max-rows N] [--timeout DUR] [--max-chars N] [--require-readonly-role]
                   [--allow-superuser]

Serves the databases to other AI agents over the Model Context Protocol, on
standard input and output (the MCP client starts this command). Every
database is opened read-only with the same guards as the app; every query is
checked by the database's own compiler (SQLite's, or PostgreSQL's parser
and a read-only transaction), capped and timed; every call is recorded in the
history with the client's name. Messages go to standard error: standard
output belongs to the protocol. Without --db, the bundled Chinook demo is
served.

Tools: list_databases, list_tables, describe_table, run_query,
explain_query, ask (needs Ollama; otherwise it answers llm_unavailable).

Register it in an MCP client's configuration, for example:
  {"mcpServers": {"querent": {"command": "querent",
    "args": ["mcp", "--db", "/path/to/sales.sqlite"]}}}
A PostgreSQL database is named by its URL (postgres://agent@db.example/sales);
keep the password out of the configuration: PGPASSWORD or ~/.pgpass.

The server stops when the client closes its end (the calls in flight get
a second to answer, then are cancelled) or at SIGINT or SIGTERM (they are
cancelled at once); a statement cancelled on PostgreSQL is stopped there
by a cancel request, not left to run until its timeout.
`

func (c *CLI) runMCP(ctx context.Context, args []string, s *stdio) int {
	fs := newFlags("mcp", mcpUsage)
	var paths []string
	fs.Var(stringsFlag{&paths}, "db", "a SQLite file, PostgreSQL URL, or CSV, XLSX, JSON or Parquet file to serve (repeat for several; default: the bundled Chinook demo)")
	readOnlyRole := fs.Bool("require-readonly-role", false, readOnlyRoleUsage)
	allowSuperuser := fs.Bool("allow-superuser", false, allowSuperuserUsage)
	model := fs.String("model", "", "the Ollama model of the ask tool (default: the best SQL model installed)")
	host := fs.String("ollama", "", "Ollama's address (default: $OLLAMA_HOST, else 127.0.0.1:11434)")
	llmURL := addLLMURLFlag(fs)
	maxRows := fs.Int("max-rows", 50, "run_query's default row cap (a call may ask for up to 1000)")
	maxChars := fs.Int("max-chars", 20_000, "the most characters of rows a tool returns")
	timeout := engine.DefaultTimeout
	fs.Var(durationFlag{&timeout}, "timeout", "the longest each query may run (default 30s)")
	if ok, code := parseFlags(fs, args, s, mcpUsage); !ok {
		return code
	}
	if fs.NArg() > 0 {
		printError(s.err, "mcp", engine.Errorf(engine.CodeUsage, "unexpected argument %q", fs.Arg(0)).WithHint("name each database with --db FILE"))
		return 2
	}
	if *maxRows < 1 || *maxChars < 1000 {
		printError(s.err, "mcp", engine.Errorf(engine.CodeUsage, "--max-rows must be at least 1 and --max-chars at least 1000"))
		return 2
	}
	if len(paths) == 0 {
		paths = []string{""}
	}
	var opened []engine.Database
	// A call that did not stop (Run's ErrStopped) may hold its database:
	// closing waits for none of them longer than the grace.
	defer func() { closeAll(opened, Grace) }()
	for _, p := range paths {
		db, err := c.Open(ctx, p, engine.OpenOptions{RequireReadOnlyRole: *readOnlyRole, AllowSuperuser: *allowSuperuser})
		if err != nil {
			printError(s.err, "mcp", err)
			return engine.ExitCode(engine.ErrorCode(err))
		}
		opened = append(opened, db)
	}
	names := mcp.Names(opened)
	dbs := make([]mcp.Database, len(opened))
	for i, db := range opened {
		dbs[i] = mcp.Database{Name: names[i], DB: db}
	}
	opts := mcp.Options{MaxRows: *maxRows, MaxChars: *maxChars, Timeout: timeout, OllamaHost: *host, ModelName: *model, Version: c.version(), Grace: Grace}
	connect, err := c.connector(*host, *llmURL)
	if err != nil {
		printError(s.err, "mcp", err)
		return 2
	}
	if c.Model != nil || *llmURL != "" {
		opts.Model = func(host string, t time.Duration) (engine.Model, error) { return connect(host, t) }
	}
	if c.History != nil {
		h, closeH, err := c.History(ctx)
		if err != nil {
			fmt.Fprintf(s.err, "querent mcp: warning: the history cannot be opened, so calls are not recorded: %v\n", err)
		} else {
			defer closeH()
			opts.History = h
		}
	}
	if c.Glossary != nil {
		g, closeG, err := c.Glossary(ctx)
		if err != nil {
			fmt.Fprintf(s.err, "querent mcp: warning: the glossary cannot be opened, so questions are asked without it: %v\n", err)
		} else {
			defer closeG()
			opts.Glossary = glossary.New(g)
		}
	}
	fmt.Fprintf(s.err, "querent mcp: serving %s (read-only) over standard input/output\n", strings.Join(names, ", "))
	err = mcp.New(dbs, opts).Run(ctx, mcp.Stdio(s.in, s.out))
	if errors.Is(err, mcp.ErrStopped) {
		fmt.Fprintf(s.err, "querent mcp: warning: a call did not stop within %s of being cancelled; exiting without it\n", Grace)
	}
	switch {
	case ctx.Err() != nil:
		return 130
	case errors.Is(err, mcp.ErrStopped):
		return 0
	case err != nil && !errors.Is(err, io.EOF):
		// Input that is not JSON-RPC gets error replies and the session goes
		// on (mcp.Stdio); what ends it here is the connection itself.
		printError(s.err, "mcp", engine.Errorf(engine.CodeInternal, "the MCP connection failed: %v", err).WithErr(err).WithHint(
			"the client may have stopped; start querent mcp again from the MCP client"))
		return 2
	}
	return 0
}

// closeAll closes the databases, in parallel, waiting at most wait for
// them: a database still busy with work that did not stop is left to the
// process's exit.
func closeAll(dbs []engine.Database, wait time.Duration) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		var wg sync.WaitGroup
		for _, db := range dbs {
			wg.Go(func() { _ = db.Close() })
		}
		wg.Wait()
	}()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-done:
	case <-timer.C:
	}
}
