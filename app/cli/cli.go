// Package cli is Querent's command-line face: the subcommands of the
// contract in design.md, with readable output for people (aligned tables,
// messages on stderr) and JSON or CSV for programs. It holds no business
// rules: it parses flags, calls the engine and formats what comes back.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"querent/engine"
	"querent/engine/importer"
)

// CLI runs the subcommands. Open is wired by cmd/querent.
type CLI struct {
	Open Opener
	// Connect opens a connection object of the sub-agent contract (ask --input).
	Connect ConnectionOpener
	// DisplayName shows a database target without its password (nil: as given).
	DisplayName func(target string) string
	// Importer is the engine's import use case (engine/importer).
	Importer *importer.Importer
	Model    ModelFactory
	// OpenAI connects to an OpenAI-compatible server (--llm-url; nil: none).
	OpenAI  OpenAIFactory
	History HistoryOpener
	// Glossary opens the glossaries' store (nil: no glossary).
	Glossary GlossaryOpener
	Serve    Server
	Version  string
}

// command is one subcommand.
type command struct {
	name, summary string
	run           func(c *CLI, ctx context.Context, args []string, io *stdio) int
}

type stdio struct {
	in       io.Reader
	out, err io.Writer
}

func commands() []command {
	return []command{
		{"sql", "run one read-only SQL query", (*CLI).runSQL},
		{"schema", "describe the tables, columns, keys and sample values", (*CLI).runSchema},
		{"explore", "profile every table and suggest questions already answered", (*CLI).runExplore},
		{"ask", "ask a question in plain language (a local Ollama model writes the SQL)", (*CLI).runAsk},
		{"import", "import CSV and XLSX files into a SQLite database", (*CLI).runImport},
		{"export", "export a query's whole result to XLSX or CSV", (*CLI).runExport},
		{"serve", "open the app in a browser (on this machine only)", (*CLI).runServe},
		{"history", "list the questions and queries asked so far", (*CLI).runHistory},
		{"relationships", "the joins between tables, declared and read from the values (list, confirm, drop)", (*CLI).runRelationships},
		{"glossary", "the business's words of a database, for the model (add, list, remove, check)", (*CLI).runGlossary},
		{"sensitive", "columns whose values no model or agent sees (add, remove, list)", (*CLI).runSensitive},
		{"mcp", "serve the databases to other AI agents (MCP over stdio)", (*CLI).runMCP},
		{"eval", "measure how well models answer a gold set of questions", (*CLI).runEval},
	}
}

// Run runs one command line (without the program name) and returns the exit
// status of the contract: 0 answered, 1 the query failed, 2 usage or
// environment, 130 cancelled.
func (c *CLI) Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	s := &stdio{in: stdin, out: stdout, err: stderr}
	ctx = withStderr(ctx, stderr)
	if len(args) == 0 {
		c.usage(stderr)
		return 2
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		if len(args) > 1 {
			return c.Run(ctx, []string{args[1], "--help"}, stdin, stdout, stderr)
		}
		c.usage(stdout)
		return 0
	case "-version", "--version", "version":
		fmt.Fprintf(stdout, "querent %s\n", c.version())
		return 0
	}
	for _, cmd := range commands() {
		if cmd.name == args[0] {
			return cmd.run(c, ctx, args[1:], s)
		}
	}
	fmt.Fprintf(stderr, "querent: unknown command %q\n  hint: run querent help to see the commands\n", args[0])
	return 2
}

func (c *CLI) version() string {
	if c.Version == "" {
		return "dev"
	}
	return c.Version
}

func (c *CLI) usage(w io.Writer) {
	fmt.Fprintf(w, `Querent %s: ask your SQLite and PostgreSQL data, offline and read-only.

Usage: querent <command> [flags] [arguments]

Commands:
`, c.version())
	for _, cmd := range commands() {
		fmt.Fprintf(w, "  %-13s %s\n", cmd.name, cmd.summary)
	}
	fmt.Fprintf(w, `
Without --db, commands use the bundled Chinook demo database, so you can try
them at once:
  querent sql "SELECT Name FROM Artist LIMIT 5"
  querent schema
--db names a SQLite file or a PostgreSQL database (postgres://role@host/db).

Run "querent <command> --help" for a command's flags.
`)
}

// newFlags returns a flag set that reports errors to the caller instead of
// printing them.
func newFlags(name string, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	_ = usage
	return fs
}

// parseFlags parses args and handles --help; ok is false when the command
// must stop with status code.
func parseFlags(fs *flag.FlagSet, args []string, s *stdio, usage string) (ok bool, code int) {
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(s.out, usage)
		fmt.Fprintln(s.out, "\nFlags:")
		fs.SetOutput(s.out)
		fs.PrintDefaults()
		return false, 0
	}
	if err != nil {
		fmt.Fprintf(s.err, "querent %s: %v\n  hint: run querent %s --help for its flags\n", fs.Name(), err, fs.Name())
		return false, 2
	}
	// Flags go before the positional arguments; a flag after them would be
	// read as part of the SQL. Catch the common slip.
	if fs.NArg() > 1 && !dashDashUsed(args, fs.NArg()) {
		for _, a := range fs.Args()[1:] {
			name := strings.TrimLeft(a, "-")
			name, _, _ = strings.Cut(name, "=")
			if strings.HasPrefix(a, "-") && name != "" && fs.Lookup(name) != nil {
				fmt.Fprintf(s.err, "querent %s: the flag %s comes after the query, so it would be read as part of it\n  hint: put flags first: querent %s %s … QUERY\n", fs.Name(), a, fs.Name(), a)
				return false, 2
			}
		}
	}
	return true, 0
}

// dashDashUsed reports whether "--" ended the flags.
func dashDashUsed(args []string, nargs int) bool {
	i := len(args) - nargs - 1
	return i >= 0 && args[i] == "--"
}

// durationFlag accepts Go durations (30s, 2m) or a plain number of seconds.
type durationFlag struct{ d *time.Duration }

func (f durationFlag) String() string {
	if f.d == nil {
		return ""
	}
	return f.d.String()
}

func (f durationFlag) Set(s string) error {
	// ParseFloat reads "NaN", "Inf" and "1e400" (as +Inf, with ErrRange):
	// no amount of time, refused. A finite number too large for a Duration
	// saturates, and the command lowers it to its ceiling with a warning.
	if secs, err := strconv.ParseFloat(s, 64); err == nil || errors.Is(err, strconv.ErrRange) {
		switch {
		case math.IsNaN(secs) || math.IsInf(secs, 0):
			return fmt.Errorf("must be a finite number of seconds or a duration such as 30s")
		case secs <= 0:
			return fmt.Errorf("must be more than 0")
		case secs >= float64(math.MaxInt64)/float64(time.Second):
			*f.d = time.Duration(math.MaxInt64)
		default:
			*f.d = time.Duration(secs * float64(time.Second))
		}
		return nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("use a duration such as 30s, 2m or 1.5 (seconds)")
	}
	if d <= 0 {
		return fmt.Errorf("must be more than 0")
	}
	*f.d = d
	return nil
}

// queryBounds checks a query's --max-rows (at least 1) and lowers it and
// --timeout to the ceilings of an answer kept in memory, returning the
// warnings that say so.
func queryBounds(maxRows int64, timeout time.Duration) (int, time.Duration, []string, error) {
	if maxRows < 1 {
		return 0, 0, nil, engine.Errorf(engine.CodeUsage, "--max-rows must be at least 1 (got %d)", maxRows).WithHint(
			"for every row of a large result, export it to a file (querent export), which streams them")
	}
	var warnings []string
	rows, w := engine.ClampRows(fmt.Sprintf("--max-rows %d", maxRows), maxRows)
	if w != "" {
		warnings = append(warnings, w)
	}
	timeout, w = engine.ClampTimeout("--timeout", timeout, engine.MaxTimeout)
	if w != "" {
		warnings = append(warnings, w)
	}
	return rows, timeout, warnings, nil
}

// enumFlag accepts one of a fixed set of values.
type enumFlag struct {
	v       *string
	allowed []string
}

func (f enumFlag) String() string {
	if f.v == nil {
		return ""
	}
	return *f.v
}

func (f enumFlag) Set(s string) error {
	for _, a := range f.allowed {
		if s == a {
			*f.v = s
			return nil
		}
	}
	return fmt.Errorf("use one of: %s", strings.Join(f.allowed, ", "))
}

// readText returns the positional text: the arguments joined by spaces, or
// standard input for a lone "-".
func readText(args []string, s *stdio, what string) (string, error) {
	if len(args) == 1 && args[0] == "-" {
		b, err := io.ReadAll(io.LimitReader(s.in, 16<<20))
		if err != nil {
			return "", engine.Errorf(engine.CodeUsage, "cannot read the %s from standard input: %v", what, err).WithErr(err)
		}
		return string(b), nil
	}
	if len(args) == 0 {
		return "", engine.Errorf(engine.CodeUsage, "no %s given", what).WithHint(
			"give it as an argument (quoted), or - to read it from standard input")
	}
	return strings.Join(args, " "), nil
}

// printError writes err for people: the message, then the hint.
func printError(w io.Writer, cmd string, err error) {
	e := engine.AsError(err)
	fmt.Fprintf(w, "querent %s: %s: %s\n", cmd, e.Code, e.Message)
	if e.Hint != "" {
		fmt.Fprintf(w, "  hint: %s\n", e.Hint)
	}
}

func printWarnings(w io.Writer, warnings []string) {
	for _, x := range warnings {
		fmt.Fprintf(w, "warning: %s\n", x)
	}
}
