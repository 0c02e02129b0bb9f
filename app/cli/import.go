package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"querent/engine"
	"querent/engine/imports"
	"querent/engine/sensitive"
)

const importUsage = `Usage: querent import --db OUT.sqlite [--table NAME] [--sheet NAME]... [--replace|--replace-user-table|--append]
                      [--encoding auto|utf-8|utf-16|utf-16le|utf-16be|windows-1252] [--delimiter auto|,|;|tab||]
                      [--ragged error|pad] [--header-row N|none] [--range A1:F200]
                      [--column COLUMN:TYPE[:ON_BAD]]... [--rename COLUMN=NAME]... [--skip COLUMN]...
                      [--plan PLAN.json] [--preview] [--format text|json] INPUT...

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

--preview writes nothing: it prints the plan, per table how the file is read
(encoding, delimiter, header row, cells), each column's name, type and why
(how many values disagree, and where), the first rows as they will be
stored, and what writing would do in --db (without --db: nothing checked).
A file over 8 MB (a sheet over 10,000 rows) is sampled, and the plan says so.
--format json prints it as a plan file, which --plan replays on next
month's file (same table, column names, types and policies).

A COLUMN is named as the preview shows it (start_date), by its header as
written ("Primary %"), or by its position (#4; in a sheet, A is #1); the
choices apply to every table that has it.
  --column COLUMN:TYPE[:ON_BAD]  TYPE is text, integer, real, date, datetime
                                 or boolean; ON_BAD says what a value that
                                 does not fit does: text (the default: the
                                 column stays text), null-bad (it is stored as
                                 NULL, counted and listed in the report), error
                                 (the import stops, naming it)
  --rename COLUMN=NAME           NAME: letters, digits and _
  --skip COLUMN                  leave the column out
  --header-row N|none            the CSV line or sheet row of the header (the
                                 lines above are skipped), or none
  --range A1:F200                an XLSX sheet's cells (B3:H to the last row,
                                 B:H whole columns); its first row is the header

  querent import --db sales.sqlite sales.csv            a new database with table "sales"
  querent import --db sales.sqlite --append jan.csv     add rows to an existing table
  querent import --db book.sqlite --sheet Data book.xlsx
  querent import --preview --column "start_date:date:null-bad" cabinet.csv
  querent import --preview --format json --db sales.sqlite jan.csv > plan.json
  querent import --plan plan.json --append feb.csv      the same choices, next month
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

// headerRowFlag reads --header-row: a line number from 1, or none.
type headerRowFlag struct{ v *int }

func (f headerRowFlag) String() string {
	if f.v == nil || *f.v == 0 {
		return ""
	}
	if *f.v < 0 {
		return "none"
	}
	return strconv.Itoa(*f.v)
}

func (f headerRowFlag) Set(s string) error {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "none", "no", "0":
		*f.v = -1
		return nil
	case "auto", "":
		*f.v = 0
		return nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 1 {
		return fmt.Errorf("give the header's line or row number (from 1), or none")
	}
	*f.v = n
	return nil
}

// parseColumnSpec reads --column COLUMN:TYPE[:ON_BAD]. The column's name
// may itself hold colons: the type and policy are read from the right.
func parseColumnSpec(spec string) (imports.ColumnOverride, error) {
	parts := strings.Split(spec, ":")
	bad := engine.Errorf(engine.CodeUsage, "--column %q: write it as COLUMN:TYPE or COLUMN:TYPE:ON_BAD", spec).
		WithHint("for example --column \"start_date:date:null-bad\"; TYPE is text, integer, real, date, datetime or boolean, ON_BAD text, null-bad or error")
	if len(parts) < 2 {
		return imports.ColumnOverride{}, bad
	}
	n := len(parts)
	if n >= 3 {
		if _, ok := imports.ParseType(parts[n-2]); ok {
			if pol, ok := imports.ParseOnBad(parts[n-1]); ok {
				col := strings.Join(parts[:n-2], ":")
				if strings.TrimSpace(col) == "" {
					return imports.ColumnOverride{}, bad
				}
				return imports.ColumnOverride{Column: col, Type: parts[n-2], OnBad: pol}, nil
			}
		}
	}
	if _, ok := imports.ParseType(parts[n-1]); !ok {
		return imports.ColumnOverride{}, engine.Errorf(engine.CodeUsage, "--column %q: %q is not a type", spec, parts[n-1]).
			WithHint("use text, integer, real, date, datetime or boolean, then optionally :text, :null-bad or :error")
	}
	col := strings.Join(parts[:n-1], ":")
	if strings.TrimSpace(col) == "" {
		return imports.ColumnOverride{}, bad
	}
	return imports.ColumnOverride{Column: col, Type: parts[n-1]}, nil
}

func (c *CLI) runImport(ctx context.Context, args []string, s *stdio) int {
	a, ok, code := parseImportArgs(args, s)
	if !ok {
		return code
	}
	req := &a.req
	if err := a.choices(); err != nil {
		return a.fail(s, err)
	}
	if err := a.check(); err != nil {
		return a.fail(s, err)
	}
	if c.Importer == nil {
		return a.fail(s, engine.Errorf(engine.CodeInternal, "this build cannot import"))
	}
	if line := newProgress(s.err, a.format, "Ctrl-C cancels"); line != nil {
		req.Progress = func(pr imports.Progress) { importStage(line, pr) }
		defer line.clear()
	}
	if a.preview {
		return c.printPreview(ctx, *req, a.format, s)
	}
	got, err := c.Importer.Import(ctx, *req)
	if err != nil {
		return a.fail(s, err)
	}
	if a.format == "json" {
		if err := writeJSON(s.out, got); err != nil {
			fmt.Fprintf(s.err, "querent import: cannot write the output: %v\n", err)
			return 2
		}
		return 0
	}
	if req.Progress != nil {
		req.Progress(imports.Progress{Phase: "done"})
	}
	printWarnings(s.err, got.Warnings)
	if err := writeImportText(s.out, got); err != nil {
		fmt.Fprintf(s.err, "querent import: cannot write the output: %v\n", err)
		return 2
	}
	c.offerSensitive(ctx, s, got)
	return 0
}

// offerSensitive names the imported columns that look like personal data
// and are not marked, with the command that marks them (never marked
// silently).
func (c *CLI) offerSensitive(ctx context.Context, s *stdio, rep *imports.Report) {
	if c.Open == nil || rep.Database == "" {
		return
	}
	db, err := c.Open(ctx, rep.Database, engine.OpenOptions{})
	if err != nil {
		return
	}
	defer db.Close()
	sch, err := db.Schema(ctx)
	if err != nil {
		return
	}
	imported := map[string]bool{}
	for _, t := range rep.Tables {
		imported[strings.ToLower(t.Name)] = true
	}
	var likely []sensitive.Likely
	for _, l := range sensitive.FindLikely(sch, sensitive.Of(db)) {
		if imported[strings.ToLower(l.Table)] {
			likely = append(likely, l)
		}
	}
	if len(likely) > 0 {
		fmt.Fprintln(s.out)
	}
	printLikely(s, likely, rep.Database)
}

// importArgs are querent import's flags: the request, and the choices
// still to read into it.
type importArgs struct {
	req                     imports.Request
	columns, renames, skips []string
	planFile, format        string
	preview                 bool
}

// parseImportArgs reads querent import's flags; ok is false when the
// command is done (help, or a usage error, with its exit status).
func parseImportArgs(args []string, s *stdio) (*importArgs, bool, int) {
	a := &importArgs{format: "text"}
	req := &a.req
	fs := newFlags("import", importUsage)
	fs.StringVar(&req.Target, "db", "", "the SQLite file to write (created when it does not exist)")
	fs.StringVar(&req.Table, "table", "", "the table's name (default: the file's or sheet's name)")
	fs.Var(stringsFlag{&req.Sheets}, "sheet", "an XLSX sheet to import (repeatable; default: every sheet)")
	fs.BoolVar(&req.Replace, "replace", false, "replace a table of the same name that Querent imported")
	fs.BoolVar(&req.ReplaceUserTable, "replace-user-table", false, "like --replace, and also replace a table that Querent did not import")
	fs.BoolVar(&req.Append, "append", false, "add the rows to a table of the same name with the same columns")
	req.Encoding = "auto"
	fs.Var(enumFlag{&req.Encoding, []string{"auto", "utf-8", "utf-16", "utf-16le", "utf-16be", "windows-1252"}}, "encoding", "the CSV files' text encoding")
	req.Delimiter = "auto"
	fs.Var(enumFlag{&req.Delimiter, []string{"auto", ",", ";", "tab", "|"}}, "delimiter", "the CSV field separator")
	req.Ragged = "error"
	fs.Var(enumFlag{&req.Ragged, []string{"error", "pad"}}, "ragged", "rows with too few fields: an error, or padded with NULL (with a warning)")
	fs.Var(headerRowFlag{&req.HeaderRow}, "header-row", "the CSV line or sheet row of the header (the lines above are skipped), or none")
	fs.StringVar(&req.Range, "range", "", "an XLSX sheet's cells, such as A3:F200, B3:H (to the last row) or B:H")
	fs.Var(stringsFlag{&a.columns}, "column", "COLUMN:TYPE[:ON_BAD] (repeatable): a column's type, and what a value that does not fit does (text, null-bad, error)")
	fs.Var(stringsFlag{&a.renames}, "rename", "COLUMN=NAME (repeatable): a column's name")
	fs.Var(stringsFlag{&a.skips}, "skip", "COLUMN (repeatable): leave the column out")
	fs.StringVar(&a.planFile, "plan", "", "a plan written by --preview --format json: its choices, replayed on the inputs (default: the plan's files)")
	fs.BoolVar(&a.preview, "preview", false, "print the plan (types, reasons, first rows, what writing would do) without writing anything")
	fs.Var(enumFlag{&a.format, []string{"text", "json"}}, "format", "output: text (for people) or json")
	if ok, code := parseFlags(fs, args, s, importUsage); !ok {
		return nil, false, code
	}
	req.Inputs = fs.Args()
	return a, true, 0
}

// fail prints err (as the plan's or the report's JSON document, or as
// text) and returns its exit status.
func (a *importArgs) fail(s *stdio, err error) int {
	if a.format == "json" {
		var doc any
		if a.preview {
			doc = &imports.Plan{PlanVersion: imports.PlanVersion, Database: a.req.Target, Tables: []imports.PlanTable{},
				Warnings: []string{}, Errors: []engine.ErrorDoc{engine.NewErrorDoc(err)}}
		} else {
			doc = &imports.Report{Database: a.req.Target, Warnings: []string{}, Errors: []engine.ErrorDoc{engine.NewErrorDoc(err)},
				Tables: []imports.ImportedTable{}}
		}
		if werr := writeJSON(s.out, doc); werr != nil {
			fmt.Fprintf(s.err, "querent import: cannot write the output: %v\n", werr)
		}
	} else {
		printError(s.err, "import", err)
	}
	return engine.ExitCode(engine.ErrorCode(err))
}

// choices reads --column, --rename, --skip and --plan into the request.
func (a *importArgs) choices() error {
	req := &a.req
	for _, spec := range a.columns {
		co, err := parseColumnSpec(spec)
		if err != nil {
			return err
		}
		req.Columns = append(req.Columns, co)
	}
	for _, r := range a.renames {
		i := strings.LastIndex(r, "=")
		if i <= 0 || strings.TrimSpace(r[i+1:]) == "" {
			return engine.Errorf(engine.CodeUsage, "--rename %q: write it as COLUMN=NAME", r).WithHint("%s", `for example --rename "Primary %=primary_share"`)
		}
		req.Columns = append(req.Columns, imports.ColumnOverride{Column: r[:i], Name: strings.TrimSpace(r[i+1:])})
	}
	for _, k := range a.skips {
		req.Columns = append(req.Columns, imports.ColumnOverride{Column: k, Skip: true})
	}
	if a.planFile != "" {
		return loadPlan(a.planFile, req)
	}
	return nil
}

// check refuses a request that cannot make an import.
func (a *importArgs) check() error {
	req := &a.req
	switch {
	case req.Target == "" && !a.preview:
		return engine.Errorf(engine.CodeUsage, "no database to write: --db is required").WithHint(
			"name the SQLite file with --db FILE; a new file is created, an existing one gets the new tables (--preview writes nothing and needs none)")
	case len(req.Inputs) == 0:
		return engine.Errorf(engine.CodeUsage, "no input files").WithHint("name one or more CSV, XLSX, JSON or Parquet files after the flags")
	case req.Replace && req.Append:
		return engine.Errorf(engine.CodeUsage, "--replace and --append cannot be used together").WithHint("choose one")
	case req.ReplaceUserTable && req.Append:
		return engine.Errorf(engine.CodeUsage, "--replace-user-table and --append cannot be used together").WithHint("choose one")
	}
	return nil
}

// loadPlan reads a plan file into req: its tables' choices, its files
// (unless inputs were named), its sheets and database (unless given).
func loadPlan(path string, req *imports.Request) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return engine.Errorf(engine.CodeUsage, "cannot read the plan %s: %v", path, err).WithErr(err).WithHint("give the file --preview --format json wrote")
	}
	var plan imports.Plan
	if err := json.Unmarshal(b, &plan); err != nil || plan.PlanVersion == 0 {
		return engine.Errorf(engine.CodeUsage, "%s is not a Querent import plan", path).
			WithHint("write one with: querent import --preview --format json [choices] FILE > plan.json")
	}
	if plan.PlanVersion > imports.PlanVersion {
		return engine.Errorf(engine.CodeUsage, "%s is a plan of version %d; this Querent reads version %d", path, plan.PlanVersion, imports.PlanVersion).
			WithHint("update Querent, or write the plan again with this one")
	}
	if len(plan.Tables) == 0 {
		return engine.Errorf(engine.CodeUsage, "the plan %s has no tables", path).WithHint("write it again from a preview that read files")
	}
	ovs, inputs, err := plan.Overrides(req.Inputs)
	if err != nil {
		return err
	}
	req.Overrides = append(ovs, req.Overrides...)
	req.Inputs = inputs
	if req.Target == "" {
		req.Target = plan.Database
	}
	if len(req.Sheets) == 0 {
		for _, t := range plan.Tables {
			if t.Sheet != nil {
				req.Sheets = append(req.Sheets, *t.Sheet)
			}
		}
	}
	return nil
}

// printPreview prints the plan: JSON, or for people per table how it is
// read, its columns and its first rows. It exits 1 when the import would
// fail (the plan's errors), 0 otherwise.
func (c *CLI) printPreview(ctx context.Context, req imports.Request, format string, s *stdio) int {
	plan, err := c.Importer.Preview(ctx, req)
	if err != nil {
		if format == "json" {
			doc := &imports.Plan{PlanVersion: imports.PlanVersion, Database: req.Target, Tables: []imports.PlanTable{},
				Warnings: []string{}, Errors: []engine.ErrorDoc{engine.NewErrorDoc(err)}}
			writeJSON(s.out, doc)
		} else {
			printError(s.err, "import", err)
		}
		return engine.ExitCode(engine.ErrorCode(err))
	}
	if req.Progress != nil {
		req.Progress(imports.Progress{Phase: "done"})
	}
	code := 0
	if len(plan.Errors) > 0 {
		code = engine.ExitCode(plan.Errors[0].Type)
	}
	if format == "json" {
		if err := writeJSON(s.out, plan); err != nil {
			fmt.Fprintf(s.err, "querent import: cannot write the output: %v\n", err)
			return 2
		}
		return code
	}
	printWarnings(s.err, plan.Warnings)
	if err := writePlanText(s.out, plan); err != nil {
		fmt.Fprintf(s.err, "querent import: cannot write the output: %v\n", err)
		return 2
	}
	for _, e := range plan.Errors {
		fmt.Fprintf(s.err, "querent import: the import would stop: %s: %s\n", e.Type, e.Message)
		if e.Hint != "" {
			fmt.Fprintf(s.err, "  hint: %s\n", e.Hint)
		}
	}
	return code
}

// previewTextRows is how many of a plan's first rows the text shows.
const previewTextRows = 10

func writePlanText(w io.Writer, plan *imports.Plan) error {
	var b strings.Builder
	where := "nothing written"
	if plan.Database != "" {
		where = "nothing written to " + plan.Database
	}
	fmt.Fprintf(&b, "Preview of %s (%s):\n", plural(len(plan.Tables), "table"), where)
	for _, t := range plan.Tables {
		src := t.Source
		if t.Sheet != nil {
			src += ", sheet " + *t.Sheet
		}
		action := ""
		if t.Action != "" {
			action = ", " + t.Action
		}
		rows := plural64(t.Rows, "row")
		if t.Sampled {
			rows = fmt.Sprintf("about %s (a sample: types and counts from the first %s; the import checks every value)",
				rows, plural64(t.SampleRows, "row"))
		}
		fmt.Fprintf(&b, "\n  %s (%s): %s%s\n", t.Name, src, rows, action)
		fmt.Fprintf(&b, "    read: %s\n", layoutText(t.Layout, t.Overridden))
		if len(t.Overridden) > 0 {
			fmt.Fprintf(&b, "    chosen: %s\n", strings.Join(t.Overridden, ", "))
		}
		writeColumnsText(&b, t.Columns)
		n := min(len(t.PreviewRows), previewTextRows)
		if n == 0 {
			continue
		}
		var cols []engine.Column
		var idx []int
		for i, c := range t.Columns {
			if !c.Skip {
				cols = append(cols, engine.Column{Name: c.Name, Type: c.Type})
				idx = append(idx, i)
			}
		}
		rowsOut := make([][]engine.Value, n)
		for r := range n {
			rowsOut[r] = make([]engine.Value, len(idx))
			for k, i := range idx {
				if i < len(t.PreviewRows[r]) {
					rowsOut[r][k] = t.PreviewRows[r][i]
				}
			}
		}
		fmt.Fprintf(&b, "    first %d rows as they will be stored (--format json has %d):\n", n, len(t.PreviewRows))
		var tb strings.Builder
		writeTable(&tb, cols, rowsOut, tableOptions{maxWidth: 24})
		for _, l := range strings.Split(strings.TrimRight(tb.String(), "\n"), "\n") {
			b.WriteString("      " + l + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// layoutText words how a table is read.
func layoutText(l imports.Layout, chosen []string) string {
	var parts []string
	mark := func(what, field string) string {
		for _, c := range chosen {
			if c == field {
				return what + " (chosen)"
			}
		}
		return what
	}
	switch l.Format {
	case "json":
		return "JSON, an array of objects (each a row, its keys the columns)"
	case "json_lines":
		return "JSON Lines, one object per line (each a row, its keys the columns)"
	case "parquet":
		return "Parquet, row group by row group (each top-level field a column; lists and groups as JSON text)"
	}
	if l.Encoding != "" {
		parts = append(parts, mark(l.Encoding, "encoding"))
	}
	if l.Delimiter != "" {
		parts = append(parts, mark("delimiter "+strconv.Quote(l.Delimiter), "delimiter"))
	}
	if l.Range != "" {
		parts = append(parts, mark("cells "+l.Range, "range"))
	}
	word := "line"
	if l.Encoding == "" {
		word = "row"
	}
	if l.HeaderRow > 0 {
		parts = append(parts, mark(fmt.Sprintf("header on %s %d", word, l.HeaderRow), "header_row"))
	} else {
		parts = append(parts, mark("no header row (columns named column_1…)", "header_row"))
	}
	return strings.Join(parts, ", ")
}

// writeColumnsText lists a plan's columns: position, name, type, why.
func writeColumnsText(b *strings.Builder, cols []imports.PlanColumn) {
	nameW, typeW := 0, 0
	for _, c := range cols {
		nameW = max(nameW, displayWidth(c.Name))
		typeW = max(typeW, len(c.Type)+1)
	}
	for _, c := range cols {
		typ := c.Type
		if containsWord(c.Overridden, "type") {
			typ += "*"
		}
		why := c.Reason
		if c.Skip {
			typ, why = "-", "left out: "+c.SkipReason
		}
		var notes []string
		if c.OriginalName != c.Name && c.OriginalName != "" {
			notes = append(notes, fmt.Sprintf("from %q", c.OriginalName))
		}
		if containsWord(c.Overridden, "name") {
			notes = append(notes, "renamed")
		}
		switch c.OnBad {
		case imports.OnBadNull:
			notes = append(notes, "bad values stored as NULL")
		case imports.OnBadError:
			notes = append(notes, "a bad value stops the import")
		}
		if c.Suggested != "" {
			notes = append(notes, "most values fit "+c.Suggested)
		}
		note := ""
		if len(notes) > 0 {
			note = " [" + strings.Join(notes, "; ") + "]"
		}
		fmt.Fprintf(b, "    #%-3d %s%s  %-*s  %s%s\n", c.Position, c.Name, strings.Repeat(" ", nameW-displayWidth(c.Name)), typeW, typ, why, note)
	}
}

func containsWord(list []string, w string) bool {
	for _, x := range list {
		if x == w {
			return true
		}
	}
	return false
}

func writeImportText(w io.Writer, rep *imports.Report) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Imported %s into %s in %s:\n", plural(len(rep.Tables), "table"), rep.Database, humanSeconds(rep.ElapsedS))
	for _, t := range rep.Tables {
		src := t.Source
		if t.Sheet != nil {
			src += ", sheet " + *t.Sheet
		}
		fmt.Fprintf(&b, "\n  %s (%s): %s, %s\n", t.Name, src, plural64(t.Rows, "row"), t.Action)
		fmt.Fprintf(&b, "    read: %s\n", layoutText(t.Layout, t.Overridden))
		if len(t.Overridden) > 0 {
			fmt.Fprintf(&b, "    chosen: %s\n", strings.Join(t.Overridden, ", "))
		}
		nameW, typeW := 0, 0
		for _, c := range t.Columns {
			nameW = max(nameW, displayWidth(c.Name))
			typeW = max(typeW, len(c.Type)+1)
		}
		for _, c := range t.Columns {
			orig := ""
			if c.OriginalName != c.Name {
				orig = fmt.Sprintf(" (was %q)", c.OriginalName)
			}
			typ := c.Type
			if containsWord(c.Overridden, "type") {
				typ += "*"
			}
			fmt.Fprintf(&b, "    %s%s  %-*s  %s%s\n", c.Name, strings.Repeat(" ", nameW-displayWidth(c.Name)), typeW, typ, c.Reason, orig)
		}
		for _, k := range t.Skipped {
			fmt.Fprintf(&b, "    left out: #%d %s: %s\n", k.Position, k.Name, k.Reason)
		}
		if t.BadValues > 0 {
			fmt.Fprintf(&b, "    %s that did not fit the chosen types stored as NULL (see each column; recorded in _querent_imports)\n",
				plural64(t.BadValues, "bad value"))
		}
	}
	if len(rep.Tables) > 0 {
		fmt.Fprintf(&b, "\n  (* a type chosen, not detected)\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// importStage draws the import's phase, file, bar and counts.
func importStage(line *progress, pr imports.Progress) {
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
