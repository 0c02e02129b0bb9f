package engine

import "context"

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

// ImportColumn describes one column of an imported table: the JSON of
// `querent import --format json`.
type ImportColumn struct {
	// Name is the safe SQL name: letters, digits and _ only, lowercase,
	// c_ before a leading digit, column_N for an empty header, _2, _3… for
	// a repeat.
	Name string `json:"name"`
	// OriginalName is the header as it was in the source.
	OriginalName string `json:"original_name"`
	// Type is one of the Type* constants.
	Type string `json:"type"`
	// Converted counts the values stored converted to Type.
	Converted int64 `json:"converted"`
	// KeptAsText counts the values stored as their original text.
	KeptAsText int64 `json:"kept_as_text"`
	// Reason says why the column got its type, in words a user understands
	// ("every value is a whole number", "kept as text: line 57 holds
	// 'approx. 5', which is not a number").
	Reason string `json:"reason"`
}

// ImportTable is one table read from a source (a CSV file or a sheet): what
// the reader learnt in its first pass over the whole source, and a way to
// stream the converted rows (its second pass).
type ImportTable struct {
	// Name is the proposed safe table name (from the file stem or the
	// sheet); the writer makes it unique in the target.
	Name string
	// Source is the source file's base name; SourcePath its full path.
	Source, SourcePath string
	// SourceSHA256 is the hex sha256 of the source file.
	SourceSHA256 string
	// Sheet is the sheet's name for XLSX sources, "" for CSV.
	Sheet string
	// Columns are the table's columns, in order.
	Columns []ImportColumn
	// RowCount is the number of data rows the first pass found.
	RowCount int64
	// Warnings are things the user must know about this source (an
	// encoding guessed, rows padded, invalid bytes replaced…).
	Warnings []string
	// Rows streams the converted rows in order: each row has len(Columns)
	// values (int64, float64, string or nil). It stops at the first error
	// yield returns, and when ctx ends.
	Rows func(ctx context.Context, yield func(row []Value) error) error
}

// ImportProgress reports how far an import has come.
type ImportProgress struct {
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

// ImportedTable is one table of an import report.
type ImportedTable struct {
	Name    string         `json:"name"`
	Source  string         `json:"source"`
	Sheet   *string        `json:"sheet"`
	Rows    int64          `json:"rows"`
	Action  string         `json:"action"` // created, replaced or appended
	Columns []ImportColumn `json:"columns"`
}

// ImportReport is the JSON of `querent import --format json`.
type ImportReport struct {
	Database string          `json:"database"`
	ElapsedS float64         `json:"elapsed_s"`
	Warnings []string        `json:"warnings"`
	Errors   []ErrorDoc      `json:"errors"`
	Tables   []ImportedTable `json:"tables"`
}

// ImportRequest is one import, as every face asks for it (the page sends it
// as JSON): the inputs to read, the database to write, and how. wiring's
// ImportFiles carries it out, reading with engine/ingest and writing with
// engine/sqlite.
type ImportRequest struct {
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
	// MaxMemory bounds the import's memory (0: the default, 1 GB).
	MaxMemory int64 `json:"-"`
	// Progress, when set, follows the import.
	Progress func(ImportProgress) `json:"-"`
}
