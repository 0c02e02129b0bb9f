package ingest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"querent/engine"
	"querent/engine/imports"
)

// Parquet: a file is read with github.com/parquet-go/parquet-go, row group
// by row group (the library holds one row group's pages at a time, never
// the whole file). Every top-level field of the file's schema is a column;
// each value is written as the one text the Inferrer reads back as the
// schema's type: integers as digits, floats in Go's shortest form,
// decimals as their exact digits (the Inferrer makes them REAL), booleans
// as true/false, dates as yyyy-mm-dd, timestamps in UTC as yyyy-mm-dd
// hh:mm:ss (DATETIME; a column with fractions of a second stays exact
// ISO text, as the Inferrer keeps it; a timestamp the file does not mark
// as UTC-adjusted is its wall-clock time as written), strings as they
// are, non-UTF-8 bytes as hex text; lists, maps and groups as compact JSON
// text, which SQLite's JSON functions read.

// parquetMagic is how a Parquet file starts (and ends).
const parquetMagic = "PAR1"

// pqPlan is what the first pass over a Parquet file learns, for the second.
type pqPlan struct {
	path, name string
	size       int64
	modTime    time.Time
	sha        string
	rows       int64
	fields     []parquet.Field
	leaf       []int // the leaf column of a plain top-level field; -1: kept as JSON
	nested     bool  // some field is kept as JSON
	colField   []int // leaf column → its top-level field
	// sub is the schema of the fields kept as JSON alone, remap a leaf
	// column's index in it (-1: a plain field's column).
	sub   *parquet.Schema
	remap []int
}

// readParquet reads a Parquet file as one source: the first pass writes
// every value as text and infers each column's type from it, as for CSV.
func readParquet(ctx context.Context, path string, fi os.FileInfo, opts Options) ([]*Source, error) {
	name := filepath.Base(path)
	if opts.Range != "" {
		return nil, engine.Errorf(engine.CodeUsage, "%s is a Parquet file: a cell range chooses the cells of an XLSX sheet", name).
			WithHint("leave out --range")
	}
	pl := &pqPlan{path: path, name: name, size: fi.Size(), modTime: fi.ModTime()}
	f, pf, err := pl.open()
	if err != nil {
		return nil, err
	}
	defer f.Close()
	pl.fields = pf.Schema().Fields()
	if len(pl.fields) == 0 {
		return nil, importErr("%s holds no column: no data to import", name).
			WithHint("choose a Parquet file with at least one column")
	}
	if len(pl.fields) > MaxColumns {
		return nil, importErr("%s has %d columns; an SQLite table holds at most %d", name, len(pl.fields), MaxColumns).
			WithHint("export fewer columns, or split the file")
	}
	pl.layout()
	infs := make([]*Inferrer, len(pl.fields))
	for j := range infs {
		infs[j] = NewInferrer()
	}
	var head previewRows
	total := pf.NumRows()
	sampled := false
	prog := &progress{fn: opts.Progress, src: name, total: total}
	prog.report(0, 0, true)
	err = pl.each(ctx, pf, func(n int64, cells []string) error {
		for j, inf := range infs {
			inf.Add(n, cells[j])
		}
		head.add(n, len(cells), func(j int) string { return cells[j] })
		if n%1024 == 0 {
			prog.report(n, n, false)
		}
		pl.rows = n
		// A preview reads about SampleBytes of the file (its share of
		// the rows); the footer gives the number of rows exactly.
		if opts.SampleBytes > 0 && n >= int64(imports.PreviewRows) && total > 0 &&
			float64(n)*float64(pl.size)/float64(total) >= float64(opts.SampleBytes) && n < total {
			sampled = true
			return errStopSample
		}
		return nil
	})
	if err != nil && !errors.Is(err, errStopSample) {
		return nil, err
	}
	prog.report(pl.rows, pl.rows, true)
	texts := make([]string, len(pl.fields))
	for j, fl := range pl.fields {
		texts[j] = fl.Name()
	}
	names := ColumnNames(texts)
	src := &Source{
		Name: TableName(strings.TrimSuffix(name, filepath.Ext(name))),
		File: name, Path: path,
		Layout:   imports.Layout{Format: "parquet"},
		lineWord: "row", head: head.rows, headLines: head.lines,
		Rows: pl.rows, SampleRows: pl.rows,
	}
	for j, fl := range pl.fields {
		src.cols = append(src.cols, &srcColumn{pos: j + 1, header: fl.Name(), original: fl.Name(), name: names[j], inf: infs[j],
			empty: infs[j].n == infs[j].blank+infs[j].spacesN})
	}
	if sampled {
		src.Sampled, src.Rows = true, total
		return []*Source{src}, nil
	}
	if pl.sha, err = pqFileSHA(path, name); err != nil {
		return nil, err
	}
	src.SHA256 = pl.sha
	src.stream = pl.secondPass
	return []*Source{src}, nil
}

// layout maps the file's leaf columns to its top-level fields, and the
// columns of the fields kept as JSON to a schema of those fields alone,
// which rebuilds them from a row without rebuilding the plain ones.
func (pl *pqPlan) layout() {
	col := 0
	start := make([]int, len(pl.fields))
	g := parquet.Group{}
	for j, fl := range pl.fields {
		start[j] = col
		n := leafCount(fl)
		if fl.Leaf() && !fl.Repeated() {
			pl.leaf = append(pl.leaf, col)
		} else {
			pl.leaf = append(pl.leaf, -1)
			pl.nested = true
			g[fl.Name()] = fl
		}
		for range n {
			pl.colField = append(pl.colField, j)
		}
		col += n
	}
	pl.remap = make([]int, col)
	for c := range pl.remap {
		pl.remap[c] = -1
	}
	if !pl.nested {
		return
	}
	pl.sub = parquet.NewSchema("nested", g)
	byName := map[string]int{}
	for j, fl := range pl.fields {
		byName[fl.Name()] = j
	}
	next := 0
	for _, f := range g.Fields() { // sorted by name, as the group orders its columns
		j := byName[f.Name()]
		for k := range leafCount(f) {
			pl.remap[start[j]+k] = next
			next++
		}
	}
}

// leafCount is the number of leaf columns under fl.
func leafCount(fl parquet.Field) int {
	if fl.Leaf() {
		return 1
	}
	n := 0
	for _, c := range fl.Fields() {
		n += leafCount(c)
	}
	return n
}

// pqFileSHA is the sha256 of the file at path, in hex.
func pqFileSHA(path, name string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", openErr(name, err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", openErr(name, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// open opens the file and reads its footer (the schema, the row groups).
func (pl *pqPlan) open() (*os.File, *parquet.File, error) {
	f, err := os.Open(pl.path)
	if err != nil {
		return nil, nil, openErr(pl.name, err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, openErr(pl.name, err)
	}
	pf, err := parquet.OpenFile(f, fi.Size(), parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		f.Close()
		return nil, nil, pl.brokenErr(err)
	}
	return f, pf, nil
}

// brokenErr is the error of a file the library cannot read.
func (pl *pqPlan) brokenErr(err error) *engine.Error {
	return importErr("%s is not a readable Parquet file (%v); nothing was imported", pl.name, err).
		WithHint("the file may be cut short or damaged: export it again from the tool that made it, then import it").
		WithErr(err)
}

// each calls fn with every row's cells, row group by row group, counting
// rows from 1.
func (pl *pqPlan) each(ctx context.Context, pf *parquet.File, fn func(n int64, cells []string) error) (err error) {
	defer func() { // a damaged page can make the library panic
		if r := recover(); r != nil {
			err = pl.brokenErr(fmt.Errorf("%v", r))
		}
	}()
	buf := make([]parquet.Row, 256)
	cells := make([]string, len(pl.fields))
	var sc pqScratch
	var n int64
	for _, rg := range pf.RowGroups() {
		rr := rg.Rows()
		for {
			k, rerr := rr.ReadRows(buf)
			for _, row := range buf[:k] {
				n++
				if n%checkEvery == 0 {
					if err := ctx.Err(); err != nil {
						rr.Close()
						return engine.AsError(err)
					}
				}
				if err := pl.cells(row, cells, &sc); err != nil {
					rr.Close()
					return pl.brokenErr(err)
				}
				if err := fn(n, cells); err != nil {
					rr.Close()
					return err
				}
			}
			if errors.Is(rerr, io.EOF) {
				break
			}
			if rerr != nil {
				rr.Close()
				return pl.brokenErr(rerr)
			}
			if k == 0 {
				break
			}
		}
		if err := rr.Close(); err != nil {
			return pl.brokenErr(err)
		}
	}
	return nil
}

// pqScratch is what cells reuses from row to row.
type pqScratch struct {
	m    map[string]any
	vals parquet.Row
}

// cells writes row's values, one text per top-level field ("" for null).
func (pl *pqPlan) cells(row parquet.Row, cells []string, sc *pqScratch) error {
	for j := range cells {
		cells[j] = ""
	}
	sc.vals = sc.vals[:0]
	for _, v := range row {
		c := v.Column()
		if c < 0 || c >= len(pl.colField) {
			return fmt.Errorf("a value of column %d, which the schema lacks", c)
		}
		if j := pl.colField[c]; pl.leaf[j] >= 0 {
			cells[j] = pqText(pl.fields[j].Type(), v)
		} else {
			sc.vals = append(sc.vals, v.Level(v.RepetitionLevel(), v.DefinitionLevel(), pl.remap[c]))
		}
	}
	if !pl.nested {
		return nil
	}
	slices.SortStableFunc(sc.vals, func(a, b parquet.Value) int { return a.Column() - b.Column() })
	if sc.m == nil {
		sc.m = map[string]any{}
	}
	clear(sc.m)
	if err := pl.sub.Reconstruct(&sc.m, sc.vals); err != nil {
		return fmt.Errorf("reading a row: %w", err)
	}
	for j, fl := range pl.fields {
		if pl.leaf[j] >= 0 {
			continue
		}
		x, ok := sc.m[fl.Name()]
		if !ok || x == nil {
			continue
		}
		b, err := json.Marshal(x)
		if err != nil {
			return fmt.Errorf("column %s as JSON: %w", fl.Name(), err)
		}
		cells[j] = string(b)
	}
	return nil
}

// pqText is a leaf value as the text the Inferrer reads as its type.
func pqText(t parquet.Type, v parquet.Value) string {
	if v.IsNull() {
		return ""
	}
	if lt := t.LogicalType(); lt != nil {
		switch x := lt.Value.(type) {
		case *format.IntType:
			if !x.IsSigned {
				if v.Kind() == parquet.Int32 {
					return strconv.FormatUint(uint64(uint32(v.Int32())), 10)
				}
				return strconv.FormatUint(uint64(v.Int64()), 10)
			}
		case *format.DecimalType:
			return decimalText(v, int(x.Scale))
		case *format.DateType:
			return time.Unix(int64(v.Int32())*86400, 0).UTC().Format("2006-01-02")
		case *format.TimestampType:
			var at time.Time
			switch x.Unit.Value.(type) {
			case *format.MilliSeconds:
				at = time.UnixMilli(v.Int64())
			case *format.MicroSeconds:
				at = time.UnixMicro(v.Int64())
			default:
				at = time.Unix(0, v.Int64())
			}
			// In UTC, without a zone: the Inferrer keeps a value with a
			// zone, or with fractions of a second, as text.
			return at.UTC().Format("2006-01-02 15:04:05.999999999")
		case *format.TimeType:
			var d time.Duration
			switch x.Unit.Value.(type) {
			case *format.MilliSeconds:
				d = time.Duration(v.Int32()) * time.Millisecond
			case *format.MicroSeconds:
				d = time.Duration(v.Int64()) * time.Microsecond
			default:
				d = time.Duration(v.Int64())
			}
			return time.Unix(0, int64(d)).UTC().Format("15:04:05.999999999")
		case *format.UUIDType:
			if b := v.ByteArray(); len(b) == 16 {
				h := hex.EncodeToString(b)
				return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
			}
		}
	}
	switch v.Kind() {
	case parquet.Boolean:
		return strconv.FormatBool(v.Boolean())
	case parquet.Int32:
		return strconv.FormatInt(int64(v.Int32()), 10)
	case parquet.Int64:
		return strconv.FormatInt(v.Int64(), 10)
	case parquet.Int96: // the legacy timestamp: nanoseconds of the day, Julian day
		i := v.Int96()
		nanos := int64(i[1])<<32 | int64(i[0])
		days := int64(i[2]) - 2440588 // the Julian day of 1970-01-01
		return time.Unix(days*86400, nanos).UTC().Format("2006-01-02 15:04:05.999999999")
	case parquet.Float:
		return strconv.FormatFloat(float64(v.Float()), 'g', -1, 32)
	case parquet.Double:
		return strconv.FormatFloat(v.Double(), 'g', -1, 64)
	}
	b := v.ByteArray()
	if utf8.Valid(b) {
		return string(b)
	}
	return hex.EncodeToString(b)
}

// decimalText is an unscaled decimal value (INT32, INT64 or big-endian
// two's-complement bytes) as its exact digits with scale decimals.
func decimalText(v parquet.Value, scale int) string {
	var u big.Int
	switch v.Kind() {
	case parquet.Int32:
		u.SetInt64(int64(v.Int32()))
	case parquet.Int64:
		u.SetInt64(v.Int64())
	default:
		b := v.ByteArray()
		u.SetBytes(b)
		if len(b) > 0 && b[0]&0x80 != 0 { // negative: subtract 2^(8·len)
			var m big.Int
			m.Lsh(big.NewInt(1), uint(8*len(b)))
			u.Sub(&u, &m)
		}
	}
	s := u.String()
	if scale <= 0 {
		return s
	}
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for len(s) <= scale {
		s = "0" + s
	}
	s = s[:len(s)-scale] + "." + s[len(s)-scale:]
	if neg {
		s = "-" + s
	}
	return s
}

// secondPass reads the file again, once it is as the first pass saw it,
// and yields the rows of the columns keep.
func (pl *pqPlan) secondPass(ctx context.Context, keep []int, convs []*cellConv, yield func(row []engine.Value) error) error {
	f, pf, err := pl.open()
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return openErr(pl.name, err)
	}
	if fi.Size() != pl.size || !fi.ModTime().Equal(pl.modTime) {
		return pl.changedErr("its size or modification time changed")
	}
	err = pl.each(ctx, pf, func(n int64, cells []string) error {
		row := make([]engine.Value, len(keep))
		for k, j := range keep {
			v, ok := convs[k].convert(n, cells[j])
			if !ok {
				return pl.changedErr(fmt.Sprintf("row %d, column %s holds %q, which is not %s like the rest of the column",
					n, pl.fields[j].Name(), shown(cells[j]), convs[k].cv.typ))
			}
			row[k] = v
		}
		if n > pl.rows {
			return pl.changedErr("it has more rows")
		}
		return yield(row)
	})
	if err != nil {
		return err
	}
	sha, err := pqFileSHA(pl.path, pl.name)
	if err != nil {
		return err
	}
	if sha != pl.sha {
		return pl.changedErr("its contents differ (sha256)")
	}
	return nil
}

func (pl *pqPlan) changedErr(what string) *engine.Error {
	return importErr("%s changed while it was imported: %s; nothing was imported", pl.name, what).
		WithHint("import it again once nothing writes to it")
}
