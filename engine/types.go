package engine

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"querent/engine/words"
)

// Column is one result column: a unique name (a repeated name gets a suffix
// _2, _3…) and its type — the declared type from the schema where the column
// comes straight from a table, otherwise the storage class of its values.
type Column struct {
	Name string `json:"name"`
	Type string `json:"type"`
	// DeclType is the declared type from the schema ("" for expressions).
	DeclType string `json:"-"`
	// Origin is the table column the values come from ("Table.Column"),
	// as the database's own column metadata says (followed through views,
	// subqueries and CTEs); "" for a computed column.
	Origin string `json:"-"`
	// Sensitive is set when the column carries the values of a column the
	// analyst marked sensitive, or is computed by a statement that reads
	// one (Sensitive.Mark): a model or an agent gets them masked.
	Sensitive bool `json:"sensitive,omitempty"`
}

// UniqueNames names cols uniquely, in place and in their order: a name met
// again, in any case, gets a suffix (name, name_2, …) that no other column
// has, so that no value of a result is lost under a repeated name.
func UniqueNames(cols []Column) {
	used := make(map[string]bool, len(cols))
	for _, c := range cols {
		used[strings.ToLower(c.Name)] = true
	}
	seen := make(map[string]bool, len(cols))
	for i := range cols {
		key := strings.ToLower(cols[i].Name)
		if !seen[key] {
			seen[key] = true
			continue
		}
		for n := 2; ; n++ {
			cand := fmt.Sprintf("%s_%d", cols[i].Name, n)
			if k := strings.ToLower(cand); !used[k] && !seen[k] {
				cols[i].Name = cand
				seen[k] = true
				break
			}
		}
	}
}

// Value is one cell as the database stored it: int64, float64, string,
// []byte or nil. Text (dates included) is never reparsed. PostgreSQL's
// values arrive as its text and map onto these (engine/postgres/types.go:
// booleans as "true"/"false", numeric as a number when exact).
type Value = any

// Result is the answer to one statement.
type Result struct {
	// Query is the SQL as written by the user or the model.
	Query string
	// ExecutedSQL is the exact text sent to SQLite, the guard's wrapper included.
	ExecutedSQL string
	Columns     []Column
	// Rows holds at most the row cap; each row has len(Columns) values.
	Rows [][]Value
	// Truncated is true when the statement had more rows than the cap.
	Truncated bool
	// Elapsed is the time spent running the statement (not validating it).
	Elapsed time.Duration
	// TablesUsed lists the tables and views the statement reads, in order of
	// first use.
	TablesUsed []string
	// Warnings are what the guard changed in the statement (Validation.Warnings).
	Warnings []string
	// ColumnsRead lists "table.column" for every column the statement read
	// (Validation.ColumnsRead), for Sensitive.Mark.
	ColumnsRead []string
}

// RowCount is the number of rows in the result (at most the cap).
func (r *Result) RowCount() int { return len(r.Rows) }

// Validation is what the guard learnt by compiling a statement without
// running it.
type Validation struct {
	// SQL is the single statement, without a trailing semicolon, as it will
	// run: double-quoted text that names no column is in single quotes.
	SQL string
	// Columns are the result columns, names made unique.
	Columns []Column
	// Tables lists the tables and views read, in order of first use.
	Tables []string
	// ColumnsRead lists "table.column" for every column read.
	ColumnsRead []string
	// Functions lists the SQL functions the statement calls.
	Functions []string
	// Warnings say what the guard changed in the statement (double-quoted
	// text read as text); empty when SQL is the statement as written.
	Warnings []string
}

// RunOptions bound one run.
type RunOptions struct {
	// MaxRows caps the rows returned; more rows set Result.Truncated.
	MaxRows int
	// Offset skips that many of the result's first rows (the page's "load
	// the next 1,000"); Truncated then says whether rows follow those
	// returned.
	Offset int
	// Timeout bounds running the statement.
	Timeout time.Duration
	// Hide are columns ("table.column") that read as NULL wherever the
	// statement reads them — selected, computed, filtered on, joined on —
	// for a statement an agent wrote: the database's authorizer substitutes
	// NULL for each read (SQLite; PostgreSQL masks the result's columns
	// only). Empty: none.
	Hide []string
}

// WithDefaults fills what o leaves out: a row cap of DefaultMaxRows, lowered
// to MaxRowsInMemory (this holds for any caller, and keeps a wrapper's
// LIMIT cap+1 from overflowing: a negative LIMIT is no limit at all), and a
// timeout of DefaultTimeout.
func (o RunOptions) WithDefaults() RunOptions {
	if o.MaxRows <= 0 {
		o.MaxRows = DefaultMaxRows
	}
	o.MaxRows = min(o.MaxRows, MaxRowsInMemory)
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	return o
}

// StreamOptions bound a streamed run (an export).
type StreamOptions struct {
	// MaxRows stops after this many rows (0: no limit) and sets Truncated.
	MaxRows int64
	// Timeout bounds the whole run (default 10 minutes).
	Timeout time.Duration
}

// StreamInfo says how a streamed run went.
type StreamInfo struct {
	Query       string
	ExecutedSQL string
	// Statement is the statement as the guard let it run (Validation.SQL),
	// before Querent's wrapper: Query, or what the guard changed in it.
	Statement  string
	Columns    []Column
	Rows       int64
	Truncated  bool
	Elapsed    time.Duration
	TablesUsed []string
	// Warnings are what the guard changed in the statement (Validation.Warnings).
	Warnings []string
}

// DefaultExportTimeout bounds an export's query (design.md: 10 minutes).
const DefaultExportTimeout = 10 * time.Minute

// Default bounds of the contract.
const (
	DefaultMaxRows = 1000
	DefaultTimeout = 30 * time.Second
)

// Database is the engine's database port: everything the faces and the ask
// loop need from a database, with nothing SQLite-specific in its shape, so
// that a second backend (PostgreSQL through a SELECT-only role) can implement
// it too. Every method is safe for use by several goroutines; calls are
// serialised on the one guarded connection.
type Database interface {
	// Dialect names the SQL dialect ("sqlite").
	Dialect() string
	// Name is the database as shown to the user: the file's path, or the demo's name.
	Name() string
	// Warnings are things the user should know about this file (a WAL file
	// read from a snapshot, a skipped integrity check…).
	Warnings() []string
	// Schema describes the tables and views.
	Schema(ctx context.Context) (*Schema, error)
	// Validate compiles sql without running it and applies the guard's policy.
	Validate(ctx context.Context, sql string) (*Validation, error)
	// Run validates and runs sql under the guard, with a row cap and a timeout.
	Run(ctx context.Context, sql string, opts RunOptions) (*Result, error)
	// Explain returns query-plan hints for sql: what would make it faster.
	Explain(ctx context.Context, sql string) ([]string, error)
	// Stream validates and runs sql under the guard without the display
	// row cap, for exports: columns is called once with the result's
	// columns, then row with each row, in order (the row's slice is reused:
	// copy what must be kept). The context is checked between rows; the
	// statement's own timeout and row limit come from opts.
	Stream(ctx context.Context, sql string, opts StreamOptions, columns func([]Column) error, row func([]Value) error) (*StreamInfo, error)
	// Close releases the database.
	Close() error
}

// WarningSayer is implemented by a database that said its warnings in
// parts (package words: the PostgreSQL role and connection warnings);
// Warnings holds their English. DatabaseWarnings is what a face says.
type WarningSayer interface {
	// WarningWords are the warnings in parts.
	WarningWords() []words.Sentence
}

// DatabaseWarnings is each of db's warnings as a face says it: in parts
// where db said it so, else as the text it wrote.
func DatabaseWarnings(db Database) []words.Sentence {
	var said []words.Sentence
	if w, ok := db.(WarningSayer); ok {
		said = w.WarningWords()
	}
	return SentencesOf(db.Warnings(), said)
}

// SentencesOf is each of texts as a face says it: the sentence of said
// whose English it is, else the text as written. Texts and sentences need
// not be in step (a face may have dropped or added a text).
func SentencesOf(texts []string, said []words.Sentence) []words.Sentence {
	out := make([]words.Sentence, len(texts))
	used := make([]bool, len(said))
	for i, t := range texts {
		out[i] = words.Plain(t)
		for j, s := range said {
			if !used[j] && words.English(s) == t {
				out[i], used[j] = s, true
				break
			}
		}
	}
	return out
}

// Filer is implemented by a database that lives in a file of the user's:
// the guarded SQLite adapter, and any client that reaches one through
// another process. Writers (export, import) ask for the path so that they
// never write over the database that is open, whatever name the user gives
// the file they write: the path is compared by file identity, not by name.
type Filer interface {
	// Path is the database file's absolute path; "" when the database is
	// not a file of the user's (the bundled demo).
	Path() string
}

// Fingerprinter is implemented by databases that are files: the sha256 of
// the file, for the history and exports' provenance. Reading a large file
// whole takes minutes, so SHA256 returns at once: the hex sha256 when it
// is known, else the file's quick identity, "quick:" and 64 hex digits (a
// hash of the file's identity, size, times and sampled pages), which the
// history replaces with the sha256 once a Querent process has computed it.
type Fingerprinter interface {
	SHA256(ctx context.Context) (string, error)
}

// Origin is implemented by a database on a server (PostgreSQL): the facts
// that say where an answer came from — the server, the database, the role,
// the server's version and the time of the snapshot the last statement
// read — for the provenance of exports. It never holds a password.
type Origin interface {
	Origin() []Fact
}

// Fact is one named fact of provenance, such as {"role", "agent_lecteur"}.
type Fact struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// OpenOptions are the choices a face passes when it opens a database.
type OpenOptions struct {
	// RequireReadOnlyRole refuses a PostgreSQL connection whose role may
	// do more than read (a superuser, a role that may write to a table…),
	// instead of connecting with a warning. SQLite files are always read
	// read-only; the option does not concern them.
	RequireReadOnlyRole bool
	// AllowSuperuser lets Querent connect to PostgreSQL as a superuser,
	// which it refuses by default: such a role reads and writes the
	// server's files and runs programs on it. Even then the guard denies
	// the functions and relations that read or change the server.
	AllowSuperuser bool
	// Progress, when set, follows the import of a data file (CSV, XLSX,
	// JSON, Parquet) named in place of a database into its workspace: on
	// the file's first open, and after it changed. Nil: no progress.
	Progress func(ImportProgress)
}

// ImportProgress is how far the import of a data file into its workspace
// has come (OpenOptions.Progress): the fields of engine/imports' Progress,
// which the engine's root cannot import.
type ImportProgress struct {
	// Phase is "reading" (the first pass: types), "writing" or "done".
	Phase string
	// Source is the file being read.
	Source string
	// BytesDone and BytesTotal measure the source file read so far.
	BytesDone, BytesTotal int64
	// Rows counts the rows done in this phase; RowsTotal is the number to
	// write (0 while reading).
	Rows, RowsTotal int64
}

// Schema describes a database: the JSON of `querent schema --format json`.
type Schema struct {
	Database string   `json:"database"`
	Tables   []*Table `json:"tables"`
	// Dialect is the database's SQL dialect (Database.Dialect; "" is
	// SQLite), so that what renders the schema for a model writes names
	// as that dialect reads them. Not part of the schema's JSON.
	Dialect string `json:"-"`
}

// Table is one table or view.
type Table struct {
	Name              string         `json:"name"`
	Kind              string         `json:"kind"` // "table" or "view"
	RowCount          int64          `json:"row_count"`
	RowCountEstimated bool           `json:"row_count_estimated"`
	Internal          bool           `json:"internal"`
	Columns           []*TableColumn `json:"columns"`
	PrimaryKey        []string       `json:"primary_key"`
	ForeignKeys       []ForeignKey   `json:"foreign_keys"`
	Indexes           []Index        `json:"indexes"`
	Samples           Rows           `json:"samples"`
	DistinctValues    DistinctValues `json:"distinct_values"`
	// DistinctValuesSampled is true when the distinct values were taken from
	// the first rows of a large table rather than the whole table.
	DistinctValuesSampled bool `json:"distinct_values_sampled,omitempty"`
	// SQL is the CREATE statement, for prompts and the schema view.
	SQL string `json:"sql,omitempty"`
	// Note says what could not be read (a slow view, a damaged table).
	Note string `json:"note,omitempty"`
	// Comment is the table's description in the database (PostgreSQL's
	// COMMENT ON TABLE), which helps a model tell what it holds.
	Comment string `json:"comment,omitempty"`
}

// Column returns the column named name (case-insensitively), or nil.
func (t *Table) Column(name string) *TableColumn {
	for _, c := range t.Columns {
		if equalFold(c.Name, name) {
			return c
		}
	}
	return nil
}

// Table returns the table or view named name (case-insensitively), or nil.
func (s *Schema) Table(name string) *Table {
	for _, t := range s.Tables {
		if equalFold(t.Name, name) {
			return t
		}
	}
	return nil
}

func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// TableColumn is one column of a table or view.
type TableColumn struct {
	Name     string  `json:"name"`
	Type     string  `json:"type"`     // declared type, as written
	Affinity string  `json:"affinity"` // INTEGER, REAL, NUMERIC, TEXT or BLOB
	Nullable bool    `json:"nullable"`
	Default  *string `json:"default"` // the default expression, as written
	PK       int     `json:"pk"`      // position in the primary key, 0 if not part of it
	// OriginalName is the name in the imported source file, when it differs
	// or is known; nil otherwise.
	OriginalName *string `json:"original_name"`
	// BadValues counts, for a column Querent imported with the policy
	// "store bad values as NULL", the values stored as NULL because they
	// did not fit its type: those NULLs are bad values, not missing ones.
	BadValues int64 `json:"bad_values,omitempty"`
	// Generated is "virtual" or "stored" for generated columns, "hidden" for
	// hidden columns of virtual tables.
	Generated string `json:"generated,omitempty"`
	// Comment is the column's description in the database (PostgreSQL's
	// COMMENT ON COLUMN).
	Comment string `json:"comment,omitempty"`
}

// ForeignKey is one foreign-key column.
type ForeignKey struct {
	Column     string `json:"column"`
	References string `json:"references"` // "Table(column)"
	// Inferred marks a join read from the values (engine/profile), given
	// to the model as a hint; a database's own foreign keys never are.
	Inferred bool `json:"inferred,omitempty"`
}

// Index is one index of a table.
type Index struct {
	Name    string   `json:"name"`
	Columns []string `json:"columns"`
	Unique  bool     `json:"unique"`
}

// Rows is a list of rows with their column names, marshalled as JSON objects
// whose keys keep the columns' order.
type Rows struct {
	Columns []string
	Values  [][]Value
}

// MarshalJSON writes [{col: value, …}, …] in column order.
func (r Rows) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, row := range r.Values {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := writeObject(&b, r.Columns, row); err != nil {
			return nil, err
		}
	}
	b.WriteByte(']')
	return b.Bytes(), nil
}

// DistinctValues maps column names to their distinct values, keeping the
// columns' order in JSON.
type DistinctValues struct {
	Columns []string
	Values  [][]Value
}

// Add records the distinct values of one column.
func (d *DistinctValues) Add(col string, values []Value) {
	d.Columns = append(d.Columns, col)
	d.Values = append(d.Values, values)
}

// Get returns the distinct values recorded for col, or nil.
func (d DistinctValues) Get(col string) []Value {
	for i, c := range d.Columns {
		if c == col {
			return d.Values[i]
		}
	}
	return nil
}

// MarshalJSON writes {col: [values…], …} in column order.
func (d DistinctValues) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, c := range d.Columns {
		if i > 0 {
			b.WriteByte(',')
		}
		writeString(&b, c)
		b.WriteByte(':')
		b.WriteByte('[')
		for j, v := range d.Values[i] {
			if j > 0 {
				b.WriteByte(',')
			}
			if err := WriteValue(&b, v); err != nil {
				return nil, err
			}
		}
		b.WriteByte(']')
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func writeObject(b *bytes.Buffer, cols []string, row []Value) error {
	b.WriteByte('{')
	for j, c := range cols {
		if j > 0 {
			b.WriteByte(',')
		}
		writeString(b, c)
		b.WriteByte(':')
		var v Value
		if j < len(row) {
			v = row[j]
		}
		if err := WriteValue(b, v); err != nil {
			return err
		}
	}
	b.WriteByte('}')
	return nil
}

// RowsJSON writes rows as [{col: value, …}, …] with keys in column order.
func RowsJSON(cols []Column, rows [][]Value) ([]byte, error) {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.Name
	}
	return Rows{Columns: names, Values: rows}.MarshalJSON()
}

func writeString(b *bytes.Buffer, s string) {
	enc, _ := json.Marshal(s) // a string always marshals
	b.Write(enc)
}

// WriteValue writes one cell as JSON: integers and floats as numbers, text as
// a string exactly as stored, blobs as base64, NULL as null. JSON has no
// infinities: ±Inf are written as the strings "Infinity" and "-Infinity".
func WriteValue(b *bytes.Buffer, v Value) error {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case float64:
		switch {
		case math.IsInf(x, 1):
			b.WriteString(`"Infinity"`)
		case math.IsInf(x, -1):
			b.WriteString(`"-Infinity"`)
		case math.IsNaN(x):
			b.WriteString("null")
		default:
			b.WriteString(FormatFloat(x))
		}
	case string:
		writeString(b, x)
	case []byte:
		b.WriteByte('"')
		b.WriteString(base64.StdEncoding.EncodeToString(x))
		b.WriteByte('"')
	default:
		enc, err := json.Marshal(x)
		if err != nil {
			return err
		}
		b.Write(enc)
	}
	return nil
}

// FormatFloat formats a float the shortest way that reads back the same,
// always with a decimal point or exponent so that it stays a float.
func FormatFloat(x float64) string {
	s := strconv.FormatFloat(x, 'g', -1, 64)
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '.', 'e', 'E', 'n', 'I': // has a point or exponent, or NaN/Inf
			return s
		}
	}
	return s + ".0"
}

// GroupThousands writes an integer with commas between thousands
// (1,234,567), as the messages and reports show counts.
func GroupThousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
