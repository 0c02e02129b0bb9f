package ingest

import (
	"context"
	"errors"
	"hash"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"querent/engine"
	"querent/engine/imports"
	"querent/engine/words"
)

// Options tune how a source is read. The zero value reads with automatic
// detection and refuses ragged rows.
type Options struct {
	// Encoding is "auto" (the default when ""), "utf-8", "utf-16" or
	// "windows-1252".
	Encoding string
	// Delimiter is "auto" (the default when ""), ",", ";", "tab" (or "\t")
	// or "|".
	Delimiter string
	// Ragged is "error" (the default when "") or "pad": pad short rows with
	// NULL and drop empty extra fields of long rows.
	Ragged string
	// Sheets names the XLSX sheets to read (all when empty); CSV ignores it.
	Sheets []string
	// Progress, when set, is called during the first pass (phase
	// "reading"), at most about ten times a second.
	Progress func(imports.Progress)
	// MaxMemory is the memory ceiling of reading one input, in bytes
	// (DefaultMaxMemory, 1 GiB, when 0). An XLSX workbook whose parts
	// excelize would hold beyond half of it (estimated from the archive's
	// directory, the parts' sizes and their XML elements before they are
	// parsed) is refused; the other half is for rows in flight. Values and
	// rows are capped at 10 MB and 64 MB whatever the ceiling; CSV reading
	// holds a few rows at a time and always fits.
	MaxMemory int64
	// HeaderRow says where the header is: 0 detects it, N is the CSV line
	// or sheet row holding it (what is above is skipped), -1 says there is
	// none (the first row is data, columns are named column_1…).
	HeaderRow int
	// Range chooses an XLSX sheet's cells: "B3:H200", "B3:H" (to the last
	// row), "B:H" (whole columns); "" reads them all. Its first row is the
	// header unless HeaderRow says otherwise.
	Range string
	// Layouts choose HeaderRow and Range per sheet (by its name), over
	// the two above.
	Layouts map[string]Layout
	// SampleBytes, when positive, reads at most about that much of a CSV
	// file (a preview): the source is Sampled, its rows an estimate, and
	// its table cannot be imported. SampleRows does the same with the data
	// rows of each XLSX sheet.
	SampleBytes int64
	SampleRows  int64
	// MaxTemp is the ceiling on the import's temporary files, in bytes
	// (DefaultMaxTemp, 4 GiB, when 0): the sheets excelize extracts from a
	// workbook while it reads it, and the spill files where an XLSX
	// table's rows wait until they are stored, counted together for all
	// the tables of the process not yet stored. CSV needs none.
	MaxTemp int64
}

// Layout is where a sheet's table is: its header row and its cells.
type Layout struct {
	HeaderRow int
	Range     string
}

// MaxColumns is the most columns an SQLite table holds.
const MaxColumns = 2000

// readXLSX reads an XLSX workbook; the XLSX reader (xlsx.go) replaces it
// from an init function.
var readXLSX = func(ctx context.Context, path string, opts Options) ([]*Source, error) {
	return nil, engine.Errorf(engine.CodeImport, "%s: XLSX reading is not built yet", filepath.Base(path)).
		WithHint("save the sheet as CSV and import that file")
}

func importErr(format string, args ...any) *engine.Error {
	return engine.Errorf(engine.CodeImport, format, args...)
}

// Read reads one source file into the tables to import, as detected: its
// sources (ReadSources) with no choices applied.
func Read(ctx context.Context, path string, opts Options) ([]*imports.Table, error) {
	srcs, err := ReadSources(ctx, path, opts)
	if err != nil {
		return nil, err
	}
	tables := make([]*imports.Table, len(srcs))
	for i, s := range srcs {
		t, _, err := s.Apply(Choices{})
		if err != nil {
			for _, s := range srcs {
				s.Close()
			}
			return nil, err
		}
		tables[i] = t
	}
	return tables, nil
}

// ReadSources reads one source file: an XLSX workbook (.xlsx, .xlsm, or
// any file that starts like a ZIP archive) through the XLSX reader, one
// Source per sheet, anything else as CSV. For CSV it runs the first pass
// over the whole file (or its start, for a sample): encoding, delimiter,
// header, ragged rows, type inference and the file's sha256. The tables
// its sources' Apply returns run the second pass, streaming converted rows.
//
// Every error is an *engine.Error: code import (naming the file, the line
// and the column where they apply, with a hint), usage for an unknown
// option value, cancelled or timeout when ctx ends.
func ReadSources(ctx context.Context, path string, opts Options) ([]*Source, error) {
	if err := ctx.Err(); err != nil {
		return nil, engine.AsError(err)
	}
	cfg, err := configure(opts)
	if err != nil {
		return nil, err
	}
	name := filepath.Base(path)
	fi, err := os.Stat(path)
	if err != nil {
		return nil, openErr(name, err)
	}
	if err := regularFile(name, fi); err != nil {
		return nil, err
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".xlsx", ".xlsm":
		return readXLSX(ctx, path, opts)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, openErr(name, err)
	}
	var start [64]byte
	n, _ := io.ReadFull(f, start[:])
	if n >= 4 && string(start[:4]) == "PK\x03\x04" {
		f.Close()
		return readXLSX(ctx, path, opts)
	}
	defer f.Close()
	if n >= 4 && string(start[:4]) == parquetMagic {
		return readParquet(ctx, path, fi, opts)
	}
	if shape := jsonShapeOf(start[:n]); shape != 0 {
		return readJSON(ctx, path, fi, shape, opts)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, openErr(name, err)
	}
	if fi.Size() == 0 {
		return nil, importErr("%s is empty: no data at all", name).
			WithHint("choose a file with a header row and data rows")
	}
	if opts.Range != "" {
		return nil, engine.Errorf(engine.CodeUsage, "%s is a CSV file: a cell range chooses the cells of an XLSX sheet", name).
			SayHint(words.New("import.csv_columns", words.Skip, words.HeaderRow))
	}
	pl := &csvPlan{path: path, name: name, size: fi.Size(), modTime: fi.ModTime(), cfg: cfg, opts: opts}
	src, err := pl.firstPass(ctx, f)
	if err != nil {
		return nil, err
	}
	return []*Source{src}, nil
}

// regularFile refuses what is not a regular file, before it is opened: a
// named pipe blocks the open until a writer comes (forever, for a command
// nobody feeds), a device or socket never ends. fi comes from os.Stat, so
// a symbolic link to a regular file is read.
func regularFile(name string, fi os.FileInfo) *engine.Error {
	m := fi.Mode()
	what := ""
	switch {
	case m.IsRegular():
		return nil
	case m.IsDir():
		return importErr("%s is a folder, not a file", name).WithHint("name a CSV, XLSX or JSON file")
	case m&os.ModeNamedPipe != 0:
		what = "a named pipe (FIFO)"
	case m&os.ModeSocket != 0:
		what = "a socket"
	case m&os.ModeDevice != 0, m&os.ModeCharDevice != 0:
		what = "a device"
	default:
		what = "a special file"
	}
	return importErr("%s is %s, not a regular file; Querent imports only regular files (it reads each one more than once)", name, what).
		WithHint("save the data to a CSV or XLSX file first, then import that file")
}

func openErr(name string, err error) *engine.Error {
	if errors.Is(err, os.ErrNotExist) {
		return importErr("%s does not exist", name).WithHint("check the path").WithErr(err)
	}
	if errors.Is(err, os.ErrPermission) {
		return importErr("%s cannot be read: permission denied", name).WithHint("check the file's permissions").WithErr(err)
	}
	return importErr("cannot open %s: %v", name, err).WithHint("check the path and the file").WithErr(err)
}

// config is Options checked.
type config struct {
	encoding string // normEncoding name
	delim    byte   // 0: sniff
	pad      bool
	// headerLine: 0 detects the header, -1 says none, N is the line
	// where the header record starts (records before it are skipped).
	headerLine int64
}

func configure(o Options) (config, error) {
	var c config
	c.encoding = normEncoding(o.Encoding)
	if c.encoding == "" {
		return c, engine.Errorf(engine.CodeUsage, "unknown encoding %q", o.Encoding).
			WithHint("use auto, utf-8, utf-16 or windows-1252")
	}
	d, ok := normDelimiter(o.Delimiter)
	if !ok {
		return c, engine.Errorf(engine.CodeUsage, "unknown delimiter %q", o.Delimiter).
			WithHint(`use auto, ",", ";", tab or "|"`)
	}
	c.delim = d
	switch strings.ToLower(o.Ragged) {
	case "", "error":
	case "pad":
		c.pad = true
	default:
		return c, engine.Errorf(engine.CodeUsage, "unknown ragged-row handling %q", o.Ragged).
			WithHint("use error or pad")
	}
	if o.HeaderRow < -1 {
		return c, engine.Errorf(engine.CodeUsage, "header row %d: a header row is a line number from 1 (or none)", o.HeaderRow).
			WithHint("give the line or row of the header, or none when the file has no header row")
	}
	c.headerLine = int64(o.HeaderRow)
	return c, nil
}

// hashReader hashes and counts what it reads.
type hashReader struct {
	r io.Reader
	h hash.Hash
	n int64
}

func (h *hashReader) Read(p []byte) (int, error) {
	n, err := h.r.Read(p)
	if n > 0 {
		h.h.Write(p[:n])
		h.n += int64(n)
	}
	return n, err
}

// progress throttles Options.Progress.
type progress struct {
	fn    func(imports.Progress)
	src   string
	total int64
	last  time.Time
}

func (p *progress) report(done, rows int64, force bool) {
	if p.fn == nil {
		return
	}
	now := time.Now()
	if !force && now.Sub(p.last) < 100*time.Millisecond {
		return
	}
	p.last = now
	p.fn(imports.Progress{Phase: "reading", Source: p.src, BytesDone: min(done, p.total), BytesTotal: p.total, Rows: rows})
}
