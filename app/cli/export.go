package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"querent/engine/export"

	"querent/engine"
	"querent/engine/ask"
)

const exportUsage = `Usage: querent export [--db FILE|URL] (--sql SQL | --question Q [--model M] [--ollama HOST]) --out FILE.xlsx|FILE.csv
                      [--max-rows N] [--timeout DUR] [--force] [--delimiter ,] [--bom] [--raw]
                      [--chart none|auto|bar|line|pie|scatter|histogram] [--language en|fr|zh]

Exports the whole result of a query (not only the first rows shown on the
screen) to an XLSX workbook or a CSV file, streamed so that memory stays
bounded however large the result. XLSX gets real numbers and dates, a bold
frozen header with filters, a Provenance sheet (the question, the SQL, the
database and its sha256, when, how many rows), a Statistics sheet and, with
--chart, a native Excel chart. CSV text that a spreadsheet would take for a
formula (=, +, -, @, tab, CR, LF or a fullwidth ＝＋－＠ first, also after
spaces or invisible characters) is neutralised with a leading ' unless
--raw. The file appears only when it is complete; an existing file is never
replaced without --force, and a SQLite database (the one read, by any name
or link, or any other) never, even with --force. The database is only read.

  querent export --sql "SELECT * FROM Invoice" --out invoices.xlsx
  querent export --question "sales per country" --chart auto --out sales.xlsx
`

// exportArgsError refuses flags that make no export (nil when they do).
func exportArgsError(out, ext, sqlText, question string, rest []string, maxRows int64, chart, delim string, csvOnly bool) error {
	switch {
	case out == "":
		return engine.Errorf(engine.CodeUsage, "no file to write: --out is required").WithHint("name the file with --out, ending in .xlsx or .csv")
	case (sqlText == "") == (question == ""):
		return engine.Errorf(engine.CodeUsage, "give either --sql or --question").WithHint(
			`--sql "SELECT …" exports a query; --question "…" lets the model write it`)
	case len(rest) > 0:
		return engine.Errorf(engine.CodeUsage, "unexpected argument %q", rest[0]).WithHint("give the SQL with --sql (quoted) or the question with --question")
	case maxRows < 0:
		return engine.Errorf(engine.CodeUsage, "--max-rows must not be negative")
	case ext != ".xlsx" && ext != ".csv":
		return engine.Errorf(engine.CodeUsage, "--out %s: the file must end in .xlsx or .csv", out).WithHint("choose out.xlsx for Excel and LibreOffice, out.csv for other programs")
	case ext == ".csv" && chart != "none":
		return engine.Errorf(engine.CodeUsage, "--chart needs an XLSX file; CSV holds no charts").WithHint("export to .xlsx, or leave out --chart")
	case ext == ".xlsx" && (delim != "," || csvOnly):
		return engine.Errorf(engine.CodeUsage, "--delimiter, --bom and --raw are for CSV files").WithHint("XLSX stores text verbatim as text cells, never as formulas")
	}
	return nil
}

// printExported says what was exported, and its warnings.
func printExported(s *stdio, res *export.Report) {
	printWarnings(s.err, res.Warnings)
	what := plural64(res.Rows, "row")
	if res.Truncated {
		what = fmt.Sprintf("the first %s (--max-rows)", what)
	}
	sheets := ""
	if len(res.Sheets) > 0 {
		sheets = " (sheets " + strings.Join(res.Sheets, ", ") + ")"
	}
	fmt.Fprintf(s.out, "Exported %s to %s%s in %s.\n", what, res.Path, sheets, humanSeconds(res.Elapsed.Seconds()))
}

func (c *CLI) runExport(ctx context.Context, args []string, s *stdio) int {
	fs := newFlags("export", exportUsage)
	dbf := addDBFlags(fs, "to read", " (default: the bundled Chinook demo)")
	sqlText := fs.String("sql", "", "the SQL query whose result to export")
	question := fs.String("question", "", "a question in plain language; a local Ollama model writes the SQL")
	model := fs.String("model", "", "the Ollama model for --question")
	host := fs.String("ollama", "", "Ollama's address for --question")
	llmURL := fs.String("llm-url", "", "an OpenAI-compatible server for --question instead of Ollama, e.g. http://127.0.0.1:1234/v1 (default: $OPENAI_BASE_URL when set)")
	out := fs.String("out", "", "the file to write: .xlsx or .csv")
	maxRows := fs.Int64("max-rows", 0, "the most rows to export (default: all)")
	timeout := engine.DefaultExportTimeout
	fs.Var(durationFlag{&timeout}, "timeout", "the longest the query may run (default 10m, at most 1h)")
	force := fs.Bool("force", false, "replace the file if it exists")
	delim := ","
	fs.Var(enumFlag{&delim, []string{",", ";", "tab", "|"}}, "delimiter", "the CSV field separator")
	bom := fs.Bool("bom", false, "CSV: start with a UTF-8 byte-order mark (Excel then reads accents right)")
	includeSensitive := fs.Bool("include-sensitive", false, "write the values of the columns marked sensitive (querent sensitive); without it they are written masked")
	raw := fs.Bool("raw", false, "CSV: write text exactly, without neutralising formula-like cells (for programs)")
	language := "en"
	fs.Var(enumFlag{&language, export.Languages()}, "language", "XLSX: the language of the workbook's own words (sheet names, Provenance, Statistics, chart notes): en, fr or zh; the data is never translated")
	chart := "none"
	fs.Var(enumFlag{&chart, []string{"none", "auto", "bar", "line", "pie", "scatter", "histogram"}}, "chart", "XLSX: add a native Excel chart")
	if ok, code := parseFlags(fs, args, s, exportUsage); !ok {
		return code
	}
	fail := func(err error) int {
		printError(s.err, "export", err)
		return engine.ExitCode(engine.ErrorCode(err))
	}
	// No display cap on the rows (an export streams them all), but the
	// time is bounded: a query is not left running for days.
	timeout, tw := engine.ClampTimeout("--timeout", timeout, engine.MaxExportTimeout)
	ext := strings.ToLower(filepath.Ext(*out))
	if err := exportArgsError(*out, ext, *sqlText, *question, fs.Args(), *maxRows, chart, delim, *bom || *raw); err != nil {
		return fail(err)
	}
	db, err := c.open(ctx, dbf)
	if err != nil {
		return fail(err)
	}
	defer db.Close()
	if tw != "" {
		printWarnings(s.err, []string{tw})
	}
	printWarnings(s.err, db.Warnings())
	req := export.Request{SQL: *sqlText, Out: *out, BOM: *bom, Raw: *raw, Force: *force, Chart: chart, MaxRows: *maxRows, Timeout: timeout, Language: language, IncludeSensitive: *includeSensitive}
	if ext == ".csv" {
		req.Delimiter = delim
	}
	// The question's history entry waits for the export, so that it
	// records the rows exported rather than the few the SQL was checked on.
	var pending *heldHistory
	if *question != "" {
		var sql, name string
		sql, name, pending, err = c.questionSQL(ctx, s, db, *question, *model, *host, *llmURL)
		defer pending.flush(ctx)
		if err != nil {
			return fail(err)
		}
		req.SQL, req.Question, req.Model = sql, *question, name
		fmt.Fprintf(s.err, "SQL by %s:\n  %s\n", name, oneLine(sql, 300))
	}
	line := newProgress(s.err, "text", "Ctrl-C cancels")
	if line != nil {
		name := filepath.Base(*out)
		req.Progress = func(p export.Progress) {
			line.set(fmt.Sprintf("writing %s: %s rows, %s", name, engine.GroupThousands(p.Rows), engine.FormatSize(p.Bytes)), false)
		}
	}
	req.Version = c.Version
	res, err := export.Run(ctx, db, req)
	line.clear()
	pending.exported(res, err)
	if err != nil {
		return fail(err)
	}
	printExported(s, res)
	return 0
}

// questionSQL asks the model for the SQL of a question (checking it on a
// few rows), for an export. The question's history entry is held back (the
// returned heldHistory) until the export says how many rows it wrote.
func (c *CLI) questionSQL(ctx context.Context, s *stdio, db engine.Database, question, model, host, llmURL string) (string, string, *heldHistory, error) {
	connect, err := c.connector(host, llmURL)
	if err != nil {
		return "", "", nil, err
	}
	asker, err := ask.Ready(ctx, connect, host, ask.RequestTimeout, model, db, nil)
	if err != nil {
		return "", "", nil, err
	}
	name := asker.ModelName
	var held *heldHistory
	if c.History != nil {
		if h, closeH, herr := c.History(ctx); herr == nil {
			held = &heldHistory{History: h, close: closeH}
			asker.History = held
		}
	}
	if g, closeG, _ := c.openGlossary(ctx); g != nil {
		defer closeG()
		asker.Glossary = g
	}
	opts := ask.Options{MaxRows: exportCheckRows, Client: "cli export", NoExplain: true, NoVote: true}
	line := newProgress(s.err, "text", "Ctrl-C cancels")
	if line != nil {
		opts.Progress = func(pr ask.Progress) { line.set(askStage(name, pr), pr.Tokens == 0) }
	}
	ans, err := asker.Ask(ctx, question, nil, opts)
	line.clear()
	if err != nil {
		return "", name, held, err
	}
	return ans.Query, name, held, nil
}

// exportCheckRows is how many rows the model's SQL is checked on before the
// export runs it in full.
const exportCheckRows = 20

// heldHistory is the history during an export's question: it lists and
// finds examples as the store does, but keeps the question's entry until
// the export ends, so that the entry says how many rows were exported.
type heldHistory struct {
	engine.History
	close func()
	entry *engine.HistoryEntry
}

// Record keeps the entry for flush.
func (h *heldHistory) Record(_ context.Context, e engine.HistoryEntry) error {
	h.entry = &e
	return nil
}

// exported puts the export's outcome in the held entry: the rows written,
// or the export's error.
func (h *heldHistory) exported(rep *export.Report, err error) {
	if h == nil || h.entry == nil || h.entry.Status != "ok" {
		return
	}
	if err != nil {
		h.entry.Status = engine.ErrorCode(err)
		return
	}
	h.entry.RowCount = int(rep.Rows)
}

// flush records the held entry and closes the store.
func (h *heldHistory) flush(ctx context.Context) {
	if h == nil {
		return
	}
	if h.entry != nil {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		_ = h.History.Record(rctx, *h.entry)
		cancel()
	}
	h.close()
}
