// Package imports holds the import's domain: the request, the analyst's
// choices (overrides and saved plans), the preview's tables and the report,
// shared by engine/ingest (which reads the files), engine/sqlite (which
// writes the tables) and the faces.
package imports

import (
	"context"
	"strconv"
	"strings"

	"querent/engine"
)

// Column types of an imported table: the declared types of the tables
// Querent creates, as the contract names them. Dates are stored as
// 'YYYY-MM-DD' text, date-times as 'YYYY-MM-DD HH:MM:SS', booleans as
// INTEGER 0/1, percentages as fractions (12% → 0.12), amounts without
// separators or currency signs.
const (
	TypeInteger  = "INTEGER"
	TypeReal     = "REAL"
	TypeText     = "TEXT"
	TypeDate     = "DATE"
	TypeDateTime = "DATETIME"
	TypeBoolean  = "BOOLEAN"
)

// Bad-value policies: what happens to a value that does not fit the type
// an analyst chose for its column (ColumnOverride.OnBad).
const (
	// OnBadText keeps the whole column as text when any value does not fit
	// (the default, and what inference does without a choice).
	OnBadText = "text"
	// OnBadNull stores the values that do not fit as NULL; the report
	// counts them and says where they were (Column.BadValues, BadAt).
	OnBadNull = "null"
	// OnBadError stops the import with an error naming them.
	OnBadError = "error"
)

// ParseType reads a type as the analyst writes it (text, integer, real,
// date, datetime, boolean, any case, and a few synonyms) and returns its
// Type* constant; ok is false for anything else.
func ParseType(s string) (string, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "text", "string", "str":
		return TypeText, true
	case "integer", "int":
		return TypeInteger, true
	case "real", "float", "number", "numeric", "decimal", "double":
		return TypeReal, true
	case "date":
		return TypeDate, true
	case "datetime", "date-time", "timestamp":
		return TypeDateTime, true
	case "boolean", "bool":
		return TypeBoolean, true
	}
	return "", false
}

// ParseOnBad reads a bad-value policy (text, null, error, with the command
// line's spellings keep-text, null-bad, stop) and returns its OnBad*
// constant ("" is text); ok is false for anything else.
func ParseOnBad(s string) (string, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "text", "keep-text", "text-bad", "keep":
		return OnBadText, true
	case "null", "null-bad", "nulls":
		return OnBadNull, true
	case "error", "error-bad", "stop", "fail":
		return OnBadError, true
	}
	return "", false
}

// MaxBadListed is how many bad values a column lists (BadAt).
const MaxBadListed = 5

// BadValue is one value that did not fit its column's type.
type BadValue struct {
	// Line is the CSV line or the sheet row the value is on.
	Line int64 `json:"line"`
	// Value is the value as written (at most 60 bytes, cut with …).
	Value string `json:"value"`
}

// Column describes one column of an imported table: the JSON of
// `querent import --format json` (and of the preview, where a column may
// be skipped).
type Column struct {
	// Name is the safe SQL name: letters, digits and _ only, lowercase,
	// c_ before a leading digit, column_N for an empty header, _2, _3… for
	// a repeat; the analyst's own name when renamed.
	Name string `json:"name"`
	// OriginalName is the header as it was in the source.
	OriginalName string `json:"original_name"`
	// Type is one of the Type* constants: what is stored.
	Type string `json:"type"`
	// Converted counts the values stored converted to Type.
	Converted int64 `json:"converted"`
	// KeptAsText counts the values stored as their original text.
	KeptAsText int64 `json:"kept_as_text"`
	// Reason says why the column got its type, in words a user understands
	// ("every value is a whole number", "kept as text: line 57 holds
	// 'approx. 5', which is not a number; 378 of 379 values are numbers").
	Reason string `json:"reason"`
	// Reasons is Reason in each of ReasonLanguages ("en", "fr", "zh"),
	// the values it quotes as they are; absent from a report written
	// before it was said in each.
	Reasons map[string]string `json:"reasons,omitempty"`
	// Position is the column's place in the source, from 1: the CSV field,
	// or the sheet's column (A is 1).
	Position int `json:"position"`
	// DetectedType is the type inference chose from the values alone.
	DetectedType string `json:"detected_type"`
	// OnBad is the policy for values that do not fit Type (OnBad*).
	OnBad string `json:"on_bad"`
	// BadValues counts the values that did not fit Type and were stored as
	// NULL (OnBadNull): these NULLs are bad values, not missing ones. In a
	// preview, it counts the values that do not fit the chosen type
	// whatever the policy (BadAtLeast: more may follow).
	BadValues int64 `json:"bad_values"`
	// BadAtLeast says that BadValues is a lower bound (a preview that
	// stopped counting, or read a sample).
	BadAtLeast bool `json:"bad_values_at_least,omitempty"`
	// BadAt lists the first of them (at most MaxBadListed), by line.
	BadAt []BadValue `json:"bad_at"`
	// Overridden names what the analyst chose for this column: "name",
	// "type", "on_bad" (and "skip" or "keep" in a preview).
	Overridden []string `json:"overridden"`
}

// SkippedColumn is a column of the source that is not stored.
type SkippedColumn struct {
	Position     int    `json:"position"`
	OriginalName string `json:"original_name"`
	// Name is the name it would have had.
	Name string `json:"name"`
	// Reason says why: the analyst skipped it, or it has neither a header
	// nor a value (Querent's rule for CSV and XLSX alike).
	Reason string `json:"reason"`
	// Reasons is Reason in each of ReasonLanguages.
	Reasons map[string]string `json:"reasons,omitempty"`
	// ByAnalyst is true when the analyst skipped it.
	ByAnalyst bool `json:"by_analyst"`
}

// EmptyColumnRule is the one rule for empty columns, CSV and XLSX alike,
// as reports state it.
const EmptyColumnRule = "a column with neither a header nor any value is left out (CSV and XLSX alike); one with a header is kept"

// Table is one table read from a source (a CSV file or a sheet): what
// the reader learnt in its first pass over the whole source, the analyst's
// choices applied, and a way to stream the converted rows (its second
// pass).
type Table struct {
	// Name is the proposed safe table name (from the file stem or the
	// sheet, or the analyst's); the writer makes it unique in the target.
	Name string
	// Source is the source file's base name; SourcePath its full path.
	Source, SourcePath string
	// SourceSHA256 is the hex sha256 of the source file ("" for a sample).
	SourceSHA256 string
	// Sheet is the sheet's name for XLSX sources, "" for CSV.
	Sheet string
	// Columns are the table's columns, in order (the skipped ones left out).
	Columns []Column
	// Skipped are the source's columns that are not stored.
	Skipped []SkippedColumn
	// RowCount is the number of data rows the first pass found (an
	// estimate when Sampled).
	RowCount int64
	// Layout is how the source was read.
	Layout Layout
	// Overridden names what the analyst chose for the table: "name",
	// "encoding", "delimiter", "header_row", "range".
	Overridden []string
	// Sampled is true when the first pass read only the start of the
	// source (a preview): the types and counts are the sample's, and Rows
	// cannot be called.
	Sampled bool
	// SampleRows counts the data rows the first pass read.
	SampleRows int64
	// Preview holds the first rows (at most PreviewRows) as they will be
	// stored, one value per source column (skipped ones included, in
	// PreviewColumns' order).
	Preview [][]engine.Value
	// PreviewColumns are every source column, in order, skipped ones
	// included (Skip true): what the preview shows.
	PreviewColumns []PlanColumn
	// Warnings are things the user must know about this source (an
	// encoding guessed, rows padded, invalid bytes replaced…).
	Warnings []string
	// Rows streams the converted rows in order: each row has len(Columns)
	// values (int64, float64, string or nil). It stops at the first error
	// yield returns, and when ctx ends. When it returns nil, Columns'
	// counts (Converted, BadValues, BadAt) are those of the rows streamed.
	Rows func(ctx context.Context, yield func(row []engine.Value) error) error
}

// PreviewRows is how many rows a preview shows.
const PreviewRows = 50

// Layout is how a source was read: what was detected, or chosen.
type Layout struct {
	// Encoding is the CSV text encoding ("utf-8", "utf-8-bom", "utf-16le",
	// "utf-16be", "windows-1252"); "" for XLSX.
	Encoding string `json:"encoding"`
	// Delimiter is the CSV field separator (",", ";", "tab", "|"); "" for XLSX.
	Delimiter string `json:"delimiter"`
	// HeaderRow is the CSV line or sheet row of the header; 0 when the
	// source has none (its columns are column_1…).
	HeaderRow int `json:"header_row"`
	// Range is the XLSX cells read, such as "A3:F200"; "" for CSV.
	Range string `json:"range"`
	// Format is "json" (an array of objects) or "json_lines" (one object
	// per line) for a JSON source, whose keys are its columns; "parquet"
	// for a Parquet file, whose top-level fields are its columns; absent
	// for CSV and XLSX.
	Format string `json:"format,omitempty"`
}

// Progress reports how far an import has come.
type Progress struct {
	// Phase is "reading" (the first pass: types) or "writing".
	Phase string `json:"phase"`
	// Source is the file being read.
	Source string `json:"source"`
	// BytesDone and BytesTotal measure the source file read so far.
	BytesDone  int64 `json:"bytes_done"`
	BytesTotal int64 `json:"bytes_total"`
	// Rows counts the rows done in this phase; RowsTotal is the number to
	// write (0 while reading, when it is not known yet).
	Rows      int64 `json:"rows"`
	RowsTotal int64 `json:"rows_total"`
}

// WriteOptions say how an import's tables are written (importer.Writer).
type WriteOptions struct {
	// Table names the one table of the import (--table).
	Table string
	// Replace replaces a table of the same name that Querent imported;
	// Append adds rows to it.
	Replace, Append bool
	// ReplaceUserTable is Replace that also replaces a table Querent did
	// not import, with a warning that says what it replaced. It implies
	// Replace.
	ReplaceUserTable bool
	// Progress, when set, is told how far the writing has come.
	Progress func(Progress)
	// MaxMemory is the import's share of the memory ceiling, which sizes
	// the writer's page cache and batches (0: the writer's default).
	MaxMemory int64
}

// TargetCheck is what writing one table would do: the name it gets and
// its action (created, replaced, appended).
type TargetCheck struct {
	Name, Action string
}

// ImportedTable is one table of an import report: what was written, and
// what was decided and chosen on the way.
type ImportedTable struct {
	Name    string   `json:"name"`
	Source  string   `json:"source"`
	Sheet   *string  `json:"sheet"`
	Rows    int64    `json:"rows"`
	Action  string   `json:"action"` // created, replaced or appended
	Columns []Column `json:"columns"`
	// Layout is how the source was read (encoding, delimiter, header
	// row, range), flattened into the table's JSON.
	Layout
	// Skipped are the source's columns that were not stored, and why.
	Skipped []SkippedColumn `json:"skipped"`
	// Overridden names what the analyst chose for the table ("name",
	// "encoding", "delimiter", "header_row", "range"); each column says
	// its own.
	Overridden []string `json:"overridden"`
	// BadValues counts the values of all its columns stored as NULL
	// because they did not fit the chosen type.
	BadValues int64 `json:"bad_values"`
}

// Report is the JSON of `querent import --format json`.
type Report struct {
	Database string            `json:"database"`
	ElapsedS float64           `json:"elapsed_s"`
	Warnings []string          `json:"warnings"`
	Errors   []engine.ErrorDoc `json:"errors"`
	Tables   []ImportedTable   `json:"tables"`
}

// Request is one import, as every face asks for it (the page sends it
// as JSON): the inputs to read, the database to write, and how. wiring's
// ImportFiles carries it out, reading with engine/ingest and writing with
// engine/sqlite.
type Request struct {
	// Target is the database to write: a new file, or one Querent's import made.
	Target string `json:"target"`
	// Inputs are the CSV and XLSX files to read.
	Inputs []string `json:"inputs"`
	// Table names the table (default: the file's stem or the sheet's name).
	Table string `json:"table"`
	// Sheets chooses the sheets of a workbook (default: all).
	Sheets []string `json:"sheets"`
	// Replace replaces a table of the same name that Querent imported;
	// ReplaceUserTable also one it did not (it implies Replace); Append adds
	// the rows to it.
	Replace          bool `json:"replace"`
	ReplaceUserTable bool `json:"replace_user_table"`
	Append           bool `json:"append"`
	// Encoding, Delimiter and Ragged read CSV files ("" or "auto": detected).
	Encoding  string `json:"encoding"`
	Delimiter string `json:"delimiter"`
	Ragged    string `json:"ragged"`
	// HeaderRow says where every table's header is: 0 detects it, N is the
	// CSV line or sheet row holding it (what is above is skipped), -1 says
	// there is none (the first row is data).
	HeaderRow int `json:"header_row"`
	// Range chooses the cells of every XLSX sheet, such as "B3:H200",
	// "B3:H" (to the last row) or "B:H" ("" all).
	Range string `json:"range"`
	// Columns are choices for the columns of every table that has them
	// (the command line's --column, --rename and --skip).
	Columns []ColumnOverride `json:"columns"`
	// Overrides are choices for one table each (the page's, a plan's);
	// they win over the fields above.
	Overrides []TableOverride `json:"overrides"`
	// MaxMemory bounds the import's memory (0: the default, 1 GB).
	MaxMemory int64 `json:"-"`
	// Progress, when set, follows the import.
	Progress func(Progress) `json:"-"`
}

// TableOverride is what the analyst chose for one table: the source it is
// read from and how, its name, and its columns. A field left empty keeps
// what Querent detects.
type TableOverride struct {
	// Source is the file (its path or its base name) and Sheet the XLSX
	// sheet the choices are for; "" matches every file, every sheet.
	Source string `json:"source"`
	Sheet  string `json:"sheet"`
	// Table is the table's name (letters, digits and _).
	Table string `json:"table"`
	// Encoding and Delimiter read a CSV file ("" or "auto": detected).
	Encoding  string `json:"encoding"`
	Delimiter string `json:"delimiter"`
	// HeaderRow and Range as in Request (0 and "": detected).
	HeaderRow int    `json:"header_row"`
	Range     string `json:"range"`
	// Columns are the choices for its columns.
	Columns []ColumnOverride `json:"columns"`
	// Skip leaves the whole table out (a sheet not wanted).
	Skip bool `json:"skip"`
	// Complete says that Columns lists every column (a plan being
	// replayed): a column it names that the source lacks is an error, a
	// column of the source it does not name is imported as detected, with
	// a warning.
	Complete bool `json:"complete"`
}

// ColumnOverride is what the analyst chose for one column.
type ColumnOverride struct {
	// Column says which: its name as the preview shows it, its header as
	// written, or "#N", its position (from 1; for XLSX, A is 1).
	Column string `json:"column"`
	// Name renames it (letters, digits and _, not starting with a digit).
	Name string `json:"name"`
	// Type is text, integer, real, date, datetime or boolean (any case);
	// "" keeps the detected type.
	Type string `json:"type"`
	// OnBad is text (the default), null or error: what happens to values
	// that do not fit Type.
	OnBad string `json:"on_bad"`
	// Skip leaves the column out; Keep keeps one Querent would leave out
	// (no header and no value).
	Skip bool `json:"skip"`
	Keep bool `json:"keep"`
}

// PlanVersion is the version of the plan document Plan writes.
const PlanVersion = 1

// Plan is what an import will do, before anything is written: the
// JSON of `querent import --preview --format json`, what the page's
// preview shows, and a plan file that `querent import --plan` replays.
type Plan struct {
	// PlanVersion is PlanVersion.
	PlanVersion int `json:"plan_version"`
	// Database is the target ("" when none was named).
	Database string `json:"database"`
	// Tables are the tables the import would write, in order.
	Tables   []PlanTable `json:"tables"`
	Warnings []string    `json:"warnings"`
	// Errors are what would stop the import (a table that exists, a bad
	// value with the policy error…); the tables are still described.
	Errors []engine.ErrorDoc `json:"errors"`
}

// PlanTable is one table of a plan.
type PlanTable struct {
	// Source is the file's base name, SourcePath its absolute path, Sheet
	// the XLSX sheet (null for CSV).
	Source     string  `json:"source"`
	SourcePath string  `json:"source_path"`
	Sheet      *string `json:"sheet"`
	// Name is the table to write.
	Name string `json:"name"`
	// Action is what writing would do in Database: create, replace or
	// append ("" when no database was named, or the import would fail).
	Action string `json:"action"`
	// Skip is true when the analyst left the whole table out: it is
	// described, not written.
	Skip bool `json:"skip"`
	// Layout is how the source is read (encoding, delimiter, header row,
	// range), flattened into the table's JSON.
	Layout
	// Rows is the number of data rows (estimated when Sampled).
	Rows int64 `json:"rows"`
	// Sampled is true when only the start of a large source was read:
	// the types, reasons and counts are the sample's, and the import
	// checks every value again. SampleRows counts the rows read.
	Sampled    bool  `json:"sampled"`
	SampleRows int64 `json:"sample_rows"`
	// Columns are every column of the source, skipped ones included.
	Columns []PlanColumn `json:"columns"`
	// PreviewRows are the first rows (at most PreviewRows) as they will
	// be stored, one value per column of Columns.
	PreviewRows [][]engine.Value `json:"preview_rows"`
	// Overridden names what the analyst chose for the table.
	Overridden []string `json:"overridden"`
	Warnings   []string `json:"warnings"`
}

// PlanColumn is one column of a plan.
type PlanColumn struct {
	Column
	// Skip is true when the column is not stored; SkipReason says why.
	Skip       bool   `json:"skip"`
	SkipReason string `json:"skip_reason,omitempty"`
	// SkipReasons is SkipReason in each of ReasonLanguages.
	SkipReasons map[string]string `json:"skip_reasons,omitempty"`
	// Suggested is a type most values fit when the column stays TEXT
	// because some do not ("" when none): choosing it with the policy null
	// stores them as NULL.
	Suggested string `json:"suggested_type,omitempty"`
	// ChosenType is the type the analyst chose when the column is stored
	// as another (TEXT, because values do not fit and the policy is text);
	// "" otherwise. A replayed plan chooses it again.
	ChosenType string `json:"chosen_type,omitempty"`
}

// Overrides turns a plan back into the choices that replay it on inputs:
// the files named (default: the plan's own), in the plan's order when
// they have other names. Every table keeps its name and every column its
// name, type, policy and skip (found again by its header, or its position
// when it has none); how the file is read (encoding, delimiter, header
// row, range) is detected again, but for what the plan's Overridden says
// was chosen. It also returns the inputs.
func (p *Plan) Overrides(inputs []string) ([]TableOverride, []string, error) {
	var files []string // the plan's source files, in order
	seen := map[string]bool{}
	for _, t := range p.Tables {
		key := t.SourcePath
		if key == "" {
			key = t.Source
		}
		if !seen[key] {
			seen[key] = true
			files = append(files, key)
		}
	}
	if len(inputs) == 0 {
		inputs = files
	}
	if len(inputs) != len(files) {
		return nil, nil, engine.Errorf(engine.CodeUsage, "the plan describes %d source files, but %d were named", len(files), len(inputs)).
			WithHint("name as many files as the plan has, in its order, or none to read the plan's own")
	}
	index := map[string]int{}
	for i, f := range files {
		index[f] = i
	}
	var out []TableOverride
	for _, t := range p.Tables {
		key := t.SourcePath
		if key == "" {
			key = t.Source
		}
		o := TableOverride{Source: inputs[index[key]], Table: t.Name, Complete: true, Skip: t.Skip}
		if t.Sheet != nil {
			o.Sheet = *t.Sheet
		}
		// How the file is read is detected again, but for what was chosen.
		for _, w := range t.Overridden {
			switch w {
			case "encoding":
				o.Encoding = t.Encoding
			case "delimiter":
				o.Delimiter = t.Delimiter
			case "header_row":
				o.HeaderRow = t.HeaderRow
				if o.HeaderRow == 0 {
					o.HeaderRow = -1 // chosen: no header
				}
			case "range":
				o.Range = t.Range
			}
		}
		origs := map[string]int{}
		for _, c := range t.Columns {
			origs[c.OriginalName]++
		}
		for _, c := range t.Columns {
			if c.Skip && !containsString(c.Overridden, "skip") {
				continue // left out by the empty-column rule, which applies again
			}
			// A column is found again by its header, or by its place when
			// it has none (or shares it with another).
			which := c.OriginalName
			if which == "" || origs[which] > 1 {
				which = "#" + itoa(c.Position)
			}
			co := ColumnOverride{Column: which, Name: c.Name, Type: c.Type, OnBad: c.OnBad, Skip: c.Skip}
			if c.ChosenType != "" {
				co.Type = c.ChosenType // chosen, but kept as text by its values (the policy text)
			}
			co.Keep = !c.Skip && containsString(c.Overridden, "keep")
			o.Columns = append(o.Columns, co)
		}
		out = append(out, o)
	}
	return out, inputs, nil
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func itoa(n int) string { return strconv.Itoa(n) }

// Plan describes the table for a plan: every column (skipped ones
// included), the first rows as stored, how the source is read. Name and
// Action are the caller's to set when a target is known.
func (t *Table) Plan() PlanTable {
	p := PlanTable{Source: t.Source, SourcePath: t.SourcePath, Name: t.Name, Layout: t.Layout,
		Rows: t.RowCount, Sampled: t.Sampled, SampleRows: t.SampleRows, Columns: t.PreviewColumns,
		PreviewRows: t.Preview, Overridden: t.Overridden, Warnings: t.Warnings}
	if t.Sheet != "" {
		s := t.Sheet
		p.Sheet = &s
	}
	if p.Columns == nil {
		p.Columns = []PlanColumn{}
	}
	if p.PreviewRows == nil {
		p.PreviewRows = [][]engine.Value{}
	}
	if p.Overridden == nil {
		p.Overridden = []string{}
	}
	if p.Warnings == nil {
		p.Warnings = []string{}
	}
	return p
}
