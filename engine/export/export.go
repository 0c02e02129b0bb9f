package export

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"querent/engine"
	"querent/engine/files"
	"querent/engine/sensitive"
	"querent/engine/words"
)

// Formats of an export.
const (
	FormatXLSX = "xlsx"
	FormatCSV  = "csv"
)

// Chart choices of Options.Chart beside engine's chart kinds (bar, line,
// pie, scatter, histogram).
const (
	ChartNone = "none" // no chart (the default)
	ChartAuto = "auto" // the chart describe.SuggestChart suggests; a table draws none
)

// Options tune one export. The zero value exports to the format the file's
// extension names, with no chart, no row limit and the default timeout.
type Options struct {
	// Format is "xlsx" or "csv"; "" takes it from out's extension (.xlsx or
	// .csv, in any case); any other extension is a usage error.
	Format string
	// Delimiter separates CSV fields: ',' (the default), ';', '\t' or '|'.
	Delimiter rune
	// BOM starts a CSV file with a UTF-8 byte-order mark, which Excel needs
	// to read UTF-8.
	BOM bool
	// Raw turns off formula neutralising in CSV (for machine consumers).
	Raw bool
	// Chart is none (the default, also ""), auto, bar, line, pie, scatter or
	// histogram; XLSX only (a chart with CSV is a usage error).
	Chart string
	// ChartX and ChartY name the columns the chart plots (the page's chart
	// as it is on screen); "" and nil choose them as auto would. For a
	// histogram ChartY's first column is the one binned.
	ChartX string
	ChartY []string
	// ChartSeries names the category whose values each draw a series (long
	// data: one line per country), ChartY2 the numbers drawn against a
	// second axis: the page's chart, or for auto the suggestion's.
	ChartSeries string
	ChartY2     []string
	// Force replaces an existing file; without it an existing out is an
	// export error naming --force. It never replaces a SQLite file or the
	// open database.
	Force bool
	// MaxRows stops the export after this many rows (0: no limit); the
	// Report and the Provenance sheet say it was capped.
	MaxRows int64
	// Timeout bounds running the statement, rows written as they come
	// included (default engine.DefaultExportTimeout), and, separately, the
	// second query of a histogram.
	Timeout time.Duration
	// Language is the language of the workbook's own words: sheet names,
	// the Provenance sheet's fields, the Statistics sheet's header and
	// notes, the chart's notes ("en", the default, "fr" or "zh"). The data
	// is never translated.
	Language string
	// Provenance describes where the rows came from, for the Provenance
	// sheet. The SQL, the row count and whether it was capped come from the
	// run itself.
	Provenance Provenance
	// Rows, when not nil, is a view of the result (the page's grid
	// filtered and sorted): the indices (from 0, in the statement's order)
	// of the rows to write, in the order to write them; nil writes every
	// row. An index past the result fails the export (nothing is written).
	Rows []int64
	// Progress, when set, is called as the export goes, at most about ten
	// times a second, and once at the end, on the goroutine that called
	// Export. It may cancel the export's context.
	Progress func(Progress)
	// IncludeSensitive exports the values of the columns the analyst
	// marked sensitive (--include-sensitive, the page's checkbox); without
	// it they are written masked (engine.MaskText), and so is a column
	// computed from one.
	IncludeSensitive bool

	// mask is, per result column, whether its values are written masked.
	mask []bool
}

// Provenance describes where an export's rows came from.
type Provenance struct {
	// Question is the user's question, when the SQL answers one.
	Question string
	// Model is the model that wrote the SQL, when one did.
	Model string
	// Explanation is the answer's explanation, when the model gave one.
	Explanation string
	// Database names the database; shown as its file name. Default: the
	// database's Name().
	Database string
	// DatabaseSHA256 is the database file's sha256. Default: asked of the
	// database when it implements engine.Fingerprinter.
	DatabaseSHA256 string
	// Time is when the export was made (default: now), shown in local time
	// with its zone.
	Time time.Time
	// Version is Querent's version, shown when set.
	Version string
}

// Progress is how far an export has come.
type Progress struct {
	// Rows is the number of rows read so far (the file's writer follows a
	// few thousand rows behind at most); in the final call, the rows
	// written.
	Rows int64
	// Bytes is the size of the values read so far (text and blob lengths,
	// 8 per number), an estimate of the data's volume while it is written;
	// in the final call it is the file's size.
	Bytes int64
}

// Report says how an export went.
type Report struct {
	// Path is the absolute path of the file written.
	Path string `json:"path"`
	// Format is "xlsx" or "csv".
	Format string `json:"format"`
	// Rows is the number of data rows written.
	Rows int64 `json:"rows"`
	// Truncated is true when Options.MaxRows stopped the export early.
	Truncated bool `json:"truncated"`
	// Sheets are the workbook's sheets in order (empty for CSV).
	Sheets []string `json:"sheets"`
	// Warnings are what the user should know about the file: cut text,
	// integers written as text, blobs, values left as text in a date
	// column, a chart that could not be drawn.
	Warnings []string `json:"warnings"`
	// WarningWords are warnings said in parts (package words), for the
	// faces: never in a document.
	WarningWords []words.Sentence `json:"-"`
	// WarningsSaid is what a face that speaks several languages adds: each
	// of Warnings in each language, in its words (the page); absent from
	// the command line's documents.
	WarningsSaid []words.Said `json:"warnings_said,omitempty"`
	// Elapsed is the whole export's time; ElapsedS the same in seconds.
	Elapsed  time.Duration `json:"-"`
	ElapsedS float64       `json:"elapsed_s"`
	// Columns are the result's columns.
	Columns []engine.Column `json:"-"`
	// MaskedColumns names the columns written masked: sensitive, and
	// exported without IncludeSensitive.
	MaskedColumns []string `json:"masked_columns"`
}

// Request is one export as every face asks for it (the page sends it as
// JSON): the SQL to run in full, the file to write, and how.
type Request struct {
	SQL string `json:"sql"`
	Out string `json:"out"`
	// Format is xlsx or csv (default: from Out's extension).
	Format string `json:"format"`
	// Delimiter is , ; tab or | (CSV only; default comma).
	Delimiter string `json:"delimiter"`
	BOM       bool   `json:"bom"`
	Raw       bool   `json:"raw"`
	Force     bool   `json:"force"`
	Chart     string `json:"chart"`
	// ChartX and ChartY are the chart's columns (Options.ChartX, ChartY).
	ChartX string   `json:"chart_x,omitempty"`
	ChartY []string `json:"chart_y,omitempty"`
	// ChartSeries and ChartY2 are the chart's series column and
	// second-axis numbers (Options.ChartSeries, ChartY2).
	ChartSeries string   `json:"chart_series,omitempty"`
	ChartY2     []string `json:"chart_y2,omitempty"`
	// Explanation is the answer's explanation (Provenance.Explanation).
	Explanation string `json:"explanation,omitempty"`
	MaxRows     int64  `json:"max_rows"`
	// Rows is a view of the result: the indices of the rows to write, in
	// order (Options.Rows); absent writes every row.
	Rows []int64 `json:"rows,omitempty"`
	// Language is the workbook's own words' language (Options.Language).
	Language string `json:"language,omitempty"`
	// Timeout bounds the query (default engine.DefaultExportTimeout).
	Timeout time.Duration `json:"-"`
	// Question and Model, when the SQL answers a question, go into the
	// file's provenance, with Querent's Version.
	Question string `json:"question"`
	Model    string `json:"model"`
	Version  string `json:"-"`
	// IncludeSensitive writes the sensitive columns' values
	// (Options.IncludeSensitive).
	IncludeSensitive bool `json:"include_sensitive"`
	// Progress, when set, follows the export (Options.Progress).
	Progress func(Progress) `json:"-"`
}

// Run carries out a request: Export with the request's options.
func Run(ctx context.Context, db engine.Database, req Request) (*Report, error) {
	d, ok := engine.ParseDelimiter(req.Delimiter)
	if !ok || req.Delimiter == "auto" {
		return nil, engine.Errorf(engine.CodeUsage, "the delimiter %q is not one of , ; tab |", req.Delimiter).WithHint("choose , ; tab or |")
	}
	opts := Options{Format: req.Format, Delimiter: d, BOM: req.BOM, Raw: req.Raw, Chart: req.Chart, ChartX: req.ChartX, ChartY: req.ChartY, ChartSeries: req.ChartSeries, ChartY2: req.ChartY2, Force: req.Force,
		MaxRows: req.MaxRows, Rows: req.Rows, Timeout: req.Timeout, Progress: req.Progress, Language: req.Language, IncludeSensitive: req.IncludeSensitive,
		Provenance: Provenance{Question: req.Question, Model: req.Model, Explanation: req.Explanation, Version: req.Version}}
	return Export(ctx, db, req.SQL, req.Out, opts)
}

// Export runs sql through db.Stream and writes the result to out, all or
// nothing: a temporary file in out's folder, fsync, rename (replacing an
// existing file only with Force, and never a SQLite file or the open
// database, see checkTarget); on any error or cancellation nothing is left
// behind and an existing file is untouched.
//
// Errors are *engine.Error: usage for bad options, export for the file
// (exists, missing folder, cannot write), cancelled when ctx is cancelled,
// and the database's own codes for the statement (refused, syntax,
// timeout…).
func Export(ctx context.Context, db engine.Database, sql, out string, opts Options) (*Report, error) {
	start := time.Now()
	if err := normalize(&opts, out); err != nil {
		return nil, err
	}
	dbPath := files.DatabasePath(db)
	abs, err := checkTarget(out, dbPath, opts)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, engine.AsError(err)
	}
	// The mask is read from the database itself, before a view wraps it.
	if opts.mask, err = maskPlan(ctx, db, sql, opts); err != nil {
		return nil, err
	}
	if opts.Rows != nil {
		v, err := newView(db, opts.Rows)
		if err != nil {
			return nil, err
		}
		db, opts.MaxRows = v, 0
	}
	tmp, err := createTemp(abs)
	if err != nil {
		return nil, err
	}
	committed := false
	defer func() {
		if !committed {
			tmp.Discard()
		}
	}()

	rep := &Report{Path: abs, Format: opts.Format, MaskedColumns: []string{}}
	prog := newProgress(opts.Progress)
	switch opts.Format {
	case FormatCSV:
		err = writeCSV(ctx, db, sql, tmp.File(), opts, rep, prog)
	default:
		err = writeXLSX(ctx, db, sql, tmp.File(), opts, rep, prog)
	}
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return nil, engine.AsError(err)
	}
	size, err := tmp.Finish()
	if err != nil {
		return nil, writeError(err)
	}
	// Again, right before the rename: a database (or a symlink to one) may
	// have been moved to the target while the rows were written.
	if err := refuseDatabase(abs, dbPath, opts.Format); err != nil {
		return nil, err
	}
	if err := commit(tmp, abs, opts.Force); err != nil {
		return nil, err
	}
	committed = true
	prog.final(rep.Rows, size)
	rep.Elapsed = time.Since(start)
	rep.ElapsedS = engine.Seconds(rep.Elapsed)
	if rep.Sheets == nil {
		rep.Sheets = []string{}
	}
	if rep.Warnings == nil {
		rep.Warnings = []string{}
	}
	if rep.MaskedColumns = engine.SensitiveNames(rep.Columns); len(rep.MaskedColumns) > 0 {
		w := words.New("sensitive.export_masked", words.And(8, rep.MaskedColumns...), words.Value(engine.MaskText))
		rep.Warnings = append(rep.Warnings, words.English(w))
		rep.WarningWords = append(rep.WarningWords, w)
	}
	return rep, nil
}

// maskPlan says which of sql's result columns are written masked: those
// that carry a marked column's values (sensitive.Set.Mark, from the
// statement as the database compiles it), unless the export includes them.
func maskPlan(ctx context.Context, db engine.Database, sql string, opts Options) ([]bool, error) {
	set := sensitive.Of(db)
	if set.Empty() || opts.IncludeSensitive {
		return nil, nil
	}
	v, err := db.Validate(ctx, sql)
	if err != nil {
		return nil, engine.AsError(err)
	}
	cols := append([]engine.Column(nil), v.Columns...)
	set.Mark(cols, v.SQL, v.Tables, v.ColumnsRead)
	mask := make([]bool, len(cols))
	for i, c := range cols {
		mask[i] = c.Sensitive
	}
	return mask, nil
}

// normalize checks the options and fills in the defaults.
func normalize(o *Options, out string) error {
	if out == "" {
		return engine.Errorf(engine.CodeUsage, "no output file").SayHint(words.New("export.name_out", words.Out.With("FILE.xlsx"), words.Out.With("FILE.csv")))
	}
	ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(out), "."))
	o.Format = strings.ToLower(strings.TrimSpace(o.Format))
	switch {
	case o.Format == "" && (ext == FormatXLSX || ext == FormatCSV):
		o.Format = ext
	case o.Format == "":
		return engine.Errorf(engine.CodeUsage, "cannot tell the format of %q from its extension", filepath.Base(out)).
			WithHint("name the file .xlsx or .csv")
	case o.Format != FormatXLSX && o.Format != FormatCSV:
		return engine.Errorf(engine.CodeUsage, "unknown export format %q", o.Format).WithHint("use xlsx or csv")
	}
	o.Chart = strings.ToLower(strings.TrimSpace(o.Chart))
	switch o.Chart {
	case "", ChartNone:
		o.Chart = ChartNone
	case ChartAuto, engine.ChartBar, engine.ChartLine, engine.ChartPie, engine.ChartScatter, engine.ChartHistogram:
		if o.Format == FormatCSV {
			return engine.Errorf(engine.CodeUsage, "a CSV file cannot hold a chart").
				SayHint(words.New("export.chart_csv", words.Chart.With(o.Chart), words.Chart))
		}
	default:
		return engine.Errorf(engine.CodeUsage, "unknown chart %q", o.Chart).
			WithHint("use none, auto, bar, line, pie, scatter or histogram")
	}
	if o.Format == FormatXLSX {
		switch {
		case o.Delimiter != 0:
			return engine.Say(engine.CodeUsage, words.New("export.csv_only", words.Delimiter)).SayHint(leaveOut)
		case o.BOM:
			return engine.Say(engine.CodeUsage, words.New("export.csv_only", words.BOM)).SayHint(leaveOut)
		case o.Raw:
			return engine.Say(engine.CodeUsage, words.New("export.csv_only_raw", words.Raw)).SayHint(leaveOut)
		}
	}
	switch o.Delimiter {
	case 0:
		o.Delimiter = ','
	case ',', ';', '\t', '|':
	default:
		return engine.Errorf(engine.CodeUsage, "unsupported CSV delimiter %q", o.Delimiter).
			WithHint("use ',', ';', tab or '|'")
	}
	if _, err := labelsFor(o.Language); err != nil {
		return err
	}
	if o.MaxRows < 0 {
		return engine.Say(engine.CodeUsage, words.New("export.negative_rows", words.MaxRows)).SayHint(words.New("export.no_limit"))
	}
	if o.Timeout <= 0 {
		o.Timeout = engine.DefaultExportTimeout
	}
	return nil
}

// checkTarget returns out's absolute path after checking that its folder
// exists, that out is neither the open database (dbPath) nor any SQLite
// file, and that it does not exist (unless opts.Force).
func checkTarget(out, dbPath string, opts Options) (string, error) {
	abs, err := filepath.Abs(out)
	if err != nil {
		return "", engine.Errorf(engine.CodeExport, "cannot resolve %s: %v", out, err).WithErr(err)
	}
	dir := filepath.Dir(abs)
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", engine.Errorf(engine.CodeExport, "the folder %s does not exist", dir).
			WithHint("create it first, or choose another file").WithErr(err)
	case err != nil:
		return "", engine.Errorf(engine.CodeExport, "cannot use the folder %s: %v", dir, err).WithErr(err)
	case !st.IsDir():
		return "", engine.Errorf(engine.CodeExport, "%s is not a folder", dir).WithHint("choose another file")
	}
	// Before the existence check: "exists, use --force" would be the wrong
	// advice for a file that --force does not replace either.
	if err := refuseDatabase(abs, dbPath, opts.Format); err != nil {
		return "", err
	}
	st, err = os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return abs, nil
	case err != nil:
		return "", engine.Errorf(engine.CodeExport, "cannot use %s: %v", out, err).WithErr(err)
	case st.IsDir():
		return "", engine.Errorf(engine.CodeExport, "%s is a folder", out).WithHint("choose a file name")
	case !opts.Force:
		return "", existsError(out)
	}
	return abs, nil
}

// refuseDatabase returns an export error when abs is the open database at
// dbPath or one of its sidecars (compared by file identity, see
// files.DatabaseFileRole), or any SQLite database, write-ahead log or
// rollback journal (by its first bytes, through any symlink): force or
// not, an export never replaces a database, so that no name, link or
// mistaken extension can turn an export into data loss.
func refuseDatabase(abs, dbPath, format string) error {
	name := filepath.Base(abs)
	hint := words.New("export.other_name", words.Value(otherName(abs, format)))
	switch role := files.DatabaseFileRole(abs, dbPath); role {
	case "":
	case "database":
		return engine.Say(engine.CodeExport, words.New("export.open_db", words.Value(name), words.Force)).SayHint(hint)
	default:
		return engine.Say(engine.CodeExport, words.New("export.sidecar", words.Value(name), words.Value(role), words.Force)).SayHint(hint)
	}
	if kind := sqliteKind(abs); kind != "" {
		return engine.Say(engine.CodeExport, words.New("export.sqlite_file", words.Value(name), kindWords(kind), words.Force)).SayHint(hint)
	}
	return nil
}

// kindWords says a kind of SQLite file (sqliteKind) in each language.
func kindWords(kind string) words.Part {
	switch kind {
	case "database":
		return words.New("export.kind_database")
	case "write-ahead log":
		return words.New("export.kind_wal")
	case "rollback journal":
		return words.New("export.kind_journal")
	}
	return words.Value(kind)
}

// rowLimit is the warning of an export stopped at its row limit.
func rowLimit(rows int64) words.Sentence {
	return words.New("export.row_limit", words.Count(rows), words.MaxRows)
}

// leaveOut is the hint of a CSV option given for a workbook.
var leaveOut = words.New("export.leave_out")

// The first bytes of SQLite's files (sqlite.org/fileformat.html).
var (
	sqliteDBMagic      = []byte("SQLite format 3\x00")
	sqliteJournalMagic = []byte{0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7}
)

// sqliteKind says what SQLite file the file at path is, by its first
// bytes: "database", "write-ahead log", "rollback journal", or "" (not
// one, or nothing there to read).
func sqliteKind(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	head := make([]byte, 16)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	switch {
	case bytes.Equal(head, sqliteDBMagic):
		return "database"
	case bytes.HasPrefix(head, sqliteJournalMagic):
		return "rollback journal"
	case n >= 4 && (binary.BigEndian.Uint32(head) == 0x377f0682 || binary.BigEndian.Uint32(head) == 0x377f0683):
		return "write-ahead log"
	}
	return ""
}

// otherName proposes a file name beside abs for an export that cannot go
// there: "data.csv" → "data-export.csv".
func otherName(abs, format string) string {
	base := filepath.Base(abs)
	ext := filepath.Ext(base)
	if !strings.EqualFold(ext, "."+format) {
		ext = "." + format
	} else {
		base = strings.TrimSuffix(base, ext)
	}
	for _, s := range []string{"-wal", "-journal", "-shm"} {
		base = strings.TrimSuffix(base, s)
	}
	base = strings.TrimSuffix(base, filepath.Ext(base))
	return base + "-export" + ext
}

// createTemp creates the file an export writes before it is moved into
// place (files.CreateAtomic), with the mode any new document gets.
func createTemp(target string) (*files.AtomicFile, error) {
	tmp, err := files.CreateAtomic(target, 0o666)
	if err != nil {
		return nil, engine.Errorf(engine.CodeExport, "cannot write in %s: %v", filepath.Clean(filepath.Dir(target)), err).
			WithHint("check the folder's permissions, or choose another folder").WithErr(err)
	}
	return tmp, nil
}

// commit moves the finished export to target (files.AtomicFile.Commit):
// without replace, a target that exists is never overwritten.
func commit(tmp *files.AtomicFile, target string, replace bool) error {
	err := tmp.Commit(replace)
	switch {
	case err == nil:
		return nil
	case !replace && errors.Is(err, fs.ErrExist):
		return existsError(target)
	}
	return engine.Errorf(engine.CodeExport, "cannot move the export into place as %s: %v", target, err).
		WithHint("if another program has the file open, close it and try again").WithErr(err)
}

func existsError(out string) *engine.Error {
	return engine.Errorf(engine.CodeExport, "%s exists", filepath.Base(out)).
		SayHint(words.New("export.exists", words.Force)).WithErr(fs.ErrExist)
}

// writeError wraps a failure to write the file.
func writeError(err error) error {
	var e *engine.Error
	if errors.As(err, &e) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return engine.Errorf(engine.CodeExport, "cannot write the export: %v", err).
		WithHint("check the free space and permissions of the folder").WithErr(err)
}

// progress rate-limits the caller's Progress callback.
type progress struct {
	fn   func(Progress)
	last time.Time
}

const progressEvery = 100 * time.Millisecond

func newProgress(fn func(Progress)) *progress { return &progress{fn: fn, last: time.Now()} }

// tick calls the callback when enough time has passed.
func (p *progress) tick(rows int64, bytes func() int64) {
	if p.fn == nil {
		return
	}
	if now := time.Now(); now.Sub(p.last) >= progressEvery {
		p.last = now
		p.fn(Progress{Rows: rows, Bytes: bytes()})
	}
}

func (p *progress) final(rows, bytes int64) {
	if p.fn != nil {
		p.fn(Progress{Rows: rows, Bytes: bytes})
	}
}

// warnings collects the report's warnings in order, without repeats; said
// are those said in parts.
type warnings struct {
	list []string
	said []words.Sentence
	seen map[string]bool
}

// say adds a warning said in parts.
func (w *warnings) say(s words.Sentence) {
	if e := words.English(s); !w.seen[e] {
		w.said = append(w.said, s)
		w.add("%s", e)
	}
}

func (w *warnings) add(format string, args ...any) {
	s := fmt.Sprintf(format, args...)
	if w.seen == nil {
		w.seen = map[string]bool{}
	}
	if !w.seen[s] {
		w.seen[s] = true
		w.list = append(w.list, s)
	}
}

// doneChecker tells cheaply whether ctx is done.
func done(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}
