package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"querent/engine"
)

// Importer reads the inputs and writes them into the target, all or
// nothing. It is wired by cmd/querent.
type Importer func(ctx context.Context, req engine.ImportRequest) (*engine.ImportReport, error)

const importUsage = `Usage: querent import --db OUT.sqlite [--table NAME] [--sheet NAME]... [--replace|--replace-user-table|--append]
                      [--encoding auto|utf-8|utf-16|windows-1252] [--delimiter auto|,|;|tab||]
                      [--ragged error|pad] [--format text|json] INPUT...

Imports CSV and XLSX files into a SQLite database, with a type for every
column (integers, decimals, dates, date-times, booleans, text) inferred from
all its values: a column converts only if every value does, otherwise it
keeps the original text. The import is all or nothing: on any error, or
Ctrl-C, the database is exactly as before (a new file is not left behind).
The input files are only read. Querent writes only into a new file or a
database that its own import made (it has a _querent_imports table), never
into another program's database; --replace replaces only a table Querent
imported, and --replace-user-table is needed to replace one added by other
means.

  querent import --db sales.sqlite sales.csv            a new database with table "sales"
  querent import --db sales.sqlite --append jan.csv     add rows to an existing table
  querent import --db book.sqlite --sheet Data book.xlsx
`

// stringsFlag collects a repeatable flag.
type stringsFlag struct{ v *[]string }

func (f stringsFlag) String() string {
	if f.v == nil {
		return ""
	}
	return strings.Join(*f.v, ",")
}
func (f stringsFlag) Set(s string) error { *f.v = append(*f.v, s); return nil }

func (c *CLI) runImport(ctx context.Context, args []string, s *stdio) int {
	fs := newFlags("import", importUsage)
	var req engine.ImportRequest
	fs.StringVar(&req.Target, "db", "", "the SQLite file to write (created when it does not exist)")
	fs.StringVar(&req.Table, "table", "", "the table's name (default: the file's or sheet's name)")
	fs.Var(stringsFlag{&req.Sheets}, "sheet", "an XLSX sheet to import (repeatable; default: every sheet)")
	fs.BoolVar(&req.Replace, "replace", false, "replace a table of the same name that Querent imported")
	fs.BoolVar(&req.ReplaceUserTable, "replace-user-table", false, "like --replace, and also replace a table that Querent did not import")
	fs.BoolVar(&req.Append, "append", false, "add the rows to a table of the same name with the same columns")
	req.Encoding = "auto"
	fs.Var(enumFlag{&req.Encoding, []string{"auto", "utf-8", "utf-16", "windows-1252"}}, "encoding", "the CSV files' text encoding")
	req.Delimiter = "auto"
	fs.Var(enumFlag{&req.Delimiter, []string{"auto", ",", ";", "tab", "|"}}, "delimiter", "the CSV field separator")
	req.Ragged = "error"
	fs.Var(enumFlag{&req.Ragged, []string{"error", "pad"}}, "ragged", "rows with too few fields: an error, or padded with NULL (with a warning)")
	format := "text"
	fs.Var(enumFlag{&format, []string{"text", "json"}}, "format", "output: text (for people) or json")
	if ok, code := parseFlags(fs, args, s, importUsage); !ok {
		return code
	}
	req.Inputs = fs.Args()
	rep := &engine.ImportReport{Database: req.Target, Warnings: []string{}, Errors: []engine.ErrorDoc{}, Tables: []engine.ImportedTable{}}
	fail := func(err error) int {
		if format == "json" {
			rep.Errors = append(rep.Errors, engine.NewErrorDoc(err))
			if werr := writeJSON(s.out, rep); werr != nil {
				fmt.Fprintf(s.err, "querent import: cannot write the output: %v\n", werr)
			}
		} else {
			printError(s.err, "import", err)
		}
		return engine.ExitCode(engine.ErrorCode(err))
	}
	switch {
	case req.Target == "":
		return fail(engine.Errorf(engine.CodeUsage, "no database to write: --db is required").WithHint(
			"name the SQLite file with --db FILE; a new file is created, an existing one gets the new tables"))
	case len(req.Inputs) == 0:
		return fail(engine.Errorf(engine.CodeUsage, "no input files").WithHint("name one or more CSV or XLSX files after the flags"))
	case req.Replace && req.Append:
		return fail(engine.Errorf(engine.CodeUsage, "--replace and --append cannot be used together").WithHint("choose one"))
	case req.ReplaceUserTable && req.Append:
		return fail(engine.Errorf(engine.CodeUsage, "--replace-user-table and --append cannot be used together").WithHint("choose one"))
	case c.Import == nil:
		return fail(engine.Errorf(engine.CodeInternal, "this build cannot import"))
	}
	if line := newProgress(s.err, format, "Ctrl-C cancels"); line != nil {
		req.Progress = func(pr engine.ImportProgress) { importStage(line, pr) }
		defer line.clear()
	}
	got, err := c.Import(ctx, req)
	if err != nil {
		return fail(err)
	}
	if format == "json" {
		if err := writeJSON(s.out, got); err != nil {
			fmt.Fprintf(s.err, "querent import: cannot write the output: %v\n", err)
			return 2
		}
		return 0
	}
	if req.Progress != nil {
		req.Progress(engine.ImportProgress{Phase: "done"})
	}
	printWarnings(s.err, got.Warnings)
	if err := writeImportText(s.out, got); err != nil {
		fmt.Fprintf(s.err, "querent import: cannot write the output: %v\n", err)
		return 2
	}
	return 0
}

func writeImportText(w io.Writer, rep *engine.ImportReport) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Imported %s into %s in %s:\n", plural(len(rep.Tables), "table"), rep.Database, humanSeconds(rep.ElapsedS))
	for _, t := range rep.Tables {
		src := t.Source
		if t.Sheet != nil {
			src += ", sheet " + *t.Sheet
		}
		fmt.Fprintf(&b, "\n  %s (%s): %s, %s\n", t.Name, src, plural64(t.Rows, "row"), t.Action)
		nameW, typeW := 0, 0
		for _, c := range t.Columns {
			nameW = max(nameW, displayWidth(c.Name))
			typeW = max(typeW, len(c.Type))
		}
		for _, c := range t.Columns {
			orig := ""
			if c.OriginalName != c.Name {
				orig = fmt.Sprintf(" (was %q)", c.OriginalName)
			}
			fmt.Fprintf(&b, "    %s%s  %-*s  %s%s\n", c.Name, strings.Repeat(" ", nameW-displayWidth(c.Name)), typeW, c.Type, c.Reason, orig)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// importStage draws the import's phase, file, bar and counts.
func importStage(line *progress, pr engine.ImportProgress) {
	if pr.Phase == "done" {
		line.clear()
		return
	}
	msg := pr.Phase + " " + cut(pr.Source, 30)
	switch {
	case pr.BytesTotal > 0:
		line.bar(msg, float64(pr.BytesDone)/float64(pr.BytesTotal), engine.FormatSize(pr.BytesDone)+" of "+engine.FormatSize(pr.BytesTotal))
	case pr.RowsTotal > 0:
		line.bar(msg, float64(pr.Rows)/float64(pr.RowsTotal), engine.GroupThousands(pr.Rows)+" of "+engine.GroupThousands(pr.RowsTotal)+" rows")
	default:
		line.set(msg+" "+engine.GroupThousands(pr.Rows)+" rows", false)
	}
}
