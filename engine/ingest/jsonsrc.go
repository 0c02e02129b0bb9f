package ingest

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"querent/engine"
	"querent/engine/imports"
)

// JSONDepth is how deep nested objects are flattened into columns: a key
// path of up to JSONDepth keys (address.geo.lat → address_geo_lat) is a
// column; an object deeper than that, and every array, is kept as its
// compact JSON text, which SQLite's JSON functions read.
const JSONDepth = 3

// jsonShape is how a JSON file holds its records.
type jsonShape int

const (
	jsonArray jsonShape = iota + 1 // [ {…}, {…} ]
	jsonLines                      // one object per line
)

// jsonShapeOf says whether the start of a file reads as JSON: its first
// byte after white space (and a UTF-8 byte-order mark) is [ or {.
func jsonShapeOf(start []byte) jsonShape {
	b := bytes.TrimLeft(bytes.TrimPrefix(start, []byte("\xEF\xBB\xBF")), " \t\r\n")
	switch {
	case len(b) == 0:
		return 0
	case b[0] == '[':
		// A CSV whose header starts with a bracket stays a CSV: JSON's
		// next byte is a value, not a letter of a column's name.
		r := bytes.TrimLeft(b[1:], " \t\r\n")
		if len(r) == 0 || r[0] == '{' || r[0] == ']' {
			return jsonArray
		}
	case b[0] == '{':
		return jsonLines
	}
	return 0
}

// jsonPlan is what the first pass over a JSON file learns, for the second.
type jsonPlan struct {
	path, name string
	shape      jsonShape
	size       int64
	modTime    time.Time
	sha        string
	rows       int64
	keys       []string       // column keys, a.b.c, in the order first seen
	index      map[string]int // key → column
}

// readJSON reads a JSON array of objects or a JSON Lines file as one
// source: the first pass flattens every record and infers each column's
// type from its values' text, as for CSV.
func readJSON(ctx context.Context, path string, fi os.FileInfo, shape jsonShape, opts Options) ([]*Source, error) {
	name := filepath.Base(path)
	if opts.Range != "" {
		return nil, engine.Errorf(engine.CodeUsage, "%s is a JSON file: a cell range chooses the cells of an XLSX sheet", name).
			WithHint("leave out --range")
	}
	pl := &jsonPlan{path: path, name: name, shape: shape, size: fi.Size(), modTime: fi.ModTime(), index: map[string]int{}}
	f, err := os.Open(path)
	if err != nil {
		return nil, openErr(name, err)
	}
	defer f.Close()
	hr := &hashReader{r: f, h: sha256.New()}
	var infs []*Inferrer
	var head previewRows
	var cells []string
	sampled := false
	prog := &progress{fn: opts.Progress, src: name, total: pl.size}
	prog.report(0, 0, true)
	err = pl.records(ctx, hr, func(line int64, rec []kv) error {
		for _, k := range pl.newKeys(rec) {
			if len(pl.keys) >= MaxColumns {
				return importErr("%s: record on %s %d has more than %d keys in all; an SQLite table holds at most %d columns",
					name, pl.lineWord(), line, MaxColumns, MaxColumns).WithHint("keep fewer keys, or split the file")
			}
			pl.index[k] = len(pl.keys)
			pl.keys = append(pl.keys, k)
			inf := NewInferrer()
			for r := int64(1); r <= pl.rows; r++ {
				inf.Add(r, "")
			}
			infs = append(infs, inf)
		}
		pl.rows++
		cells = pl.cells(rec, cells)
		for j, inf := range infs {
			inf.Add(line, cells[j])
		}
		head.add(line, len(cells), func(j int) string { return cells[j] })
		if pl.rows%1024 == 0 {
			prog.report(hr.n, pl.rows, false)
		}
		if opts.SampleBytes > 0 && hr.n >= opts.SampleBytes && pl.rows >= int64(imports.PreviewRows) {
			sampled = true
			return errStopSample
		}
		return nil
	})
	if err != nil && !errors.Is(err, errStopSample) {
		return nil, err
	}
	if len(pl.keys) == 0 {
		return nil, importErr("%s holds no JSON object with a key: no data to import", name).
			WithHint("a JSON file to import is an array of objects, or one object per line (JSON Lines)")
	}
	for i, r := range head.rows { // rows read before a key appeared: that key is NULL
		for len(r) < len(pl.keys) {
			r = append(r, "")
		}
		head.rows[i] = r
	}
	prog.report(hr.n, pl.rows, true)
	names := ColumnNames(pl.columnTexts())
	src := &Source{
		Name: TableName(strings.TrimSuffix(name, filepath.Ext(name))),
		File: name, Path: path,
		Layout:   imports.Layout{Encoding: "utf-8", Format: map[jsonShape]string{jsonArray: "json", jsonLines: "json_lines"}[shape]},
		lineWord: pl.lineWord(), head: head.rows, headLines: head.lines,
		Rows: pl.rows, SampleRows: pl.rows,
	}
	for j, k := range pl.keys {
		src.cols = append(src.cols, &srcColumn{pos: j + 1, header: k, original: k, name: names[j], inf: infs[j],
			empty: infs[j].n == infs[j].blank+infs[j].spacesN})
	}
	if sampled {
		src.Sampled = true
		if hr.n > 0 {
			src.Rows = max(pl.rows, int64(float64(pl.rows)*float64(pl.size)/float64(hr.n)))
		}
		return []*Source{src}, nil
	}
	pl.sha = hex.EncodeToString(hr.h.Sum(nil))
	src.SHA256 = pl.sha
	src.stream = pl.secondPass
	return []*Source{src}, nil
}

var errStopSample = errors.New("sample read")

// maxJSONRecord bounds one JSON Lines record, as a CSV row is bounded.
const maxJSONRecord = 64 << 20

var errLongLine = errors.New("line too long")

// readLine reads one line, its newline included, of at most maxJSONRecord
// bytes.
func readLine(br *bufio.Reader) ([]byte, error) {
	var out []byte
	for {
		b, err := br.ReadSlice('\n')
		if len(out)+len(b) > maxJSONRecord {
			return nil, errLongLine
		}
		out = append(out, b...)
		if err != bufio.ErrBufferFull {
			return out, err
		}
	}
}

// lineWord is how messages place a record: its line (JSON Lines) or its
// place in the array ("row", counted from 1).
func (pl *jsonPlan) lineWord() string {
	if pl.shape == jsonLines {
		return "line"
	}
	return "row"
}

// columnTexts are the columns' names before they are made safe:
// address.city becomes address_city.
func (pl *jsonPlan) columnTexts() []string {
	out := make([]string, len(pl.keys))
	for i, k := range pl.keys {
		out[i] = strings.ReplaceAll(k, ".", "_")
	}
	return out
}

// newKeys are the keys of rec no column has yet, in rec's order.
func (pl *jsonPlan) newKeys(rec []kv) []string {
	var out []string
	for _, p := range rec {
		if _, ok := pl.index[p.k]; !ok && !slices.Contains(out, p.k) {
			out = append(out, p.k)
		}
	}
	return out
}

// cells are rec's values in the order of the columns ("" for a key rec
// does not have: NULL; a key given twice keeps its last value).
func (pl *jsonPlan) cells(rec []kv, buf []string) []string {
	buf = buf[:0]
	for range pl.keys {
		buf = append(buf, "")
	}
	for _, p := range rec {
		buf[pl.index[p.k]] = p.v
	}
	return buf
}

// records reads the file's records in order, each flattened, and calls fn
// with its line (JSON Lines) or its place (array). A broken record is an
// error naming its line.
func (pl *jsonPlan) records(ctx context.Context, r io.Reader, fn func(line int64, rec []kv) error) error {
	if pl.shape == jsonLines {
		return pl.lines(ctx, r, fn)
	}
	return pl.array(ctx, r, fn)
}

func (pl *jsonPlan) lines(ctx context.Context, r io.Reader, fn func(int64, []kv) error) error {
	br := bufio.NewReaderSize(r, 1<<16)
	var line int64
	for {
		b, err := readLine(br)
		if errors.Is(err, errLongLine) {
			return importErr("%s: line %d is longer than %s; a record holds at most that much", pl.name, line+1, engine.FormatSize(maxJSONRecord)).
				WithHint("split the record, or export the data as CSV")
		}
		if len(b) > 0 {
			line++
			if line%checkEvery == 0 {
				if err := ctx.Err(); err != nil {
					return engine.AsError(err)
				}
			}
			if line == 1 {
				b = bytes.TrimPrefix(b, []byte("\xEF\xBB\xBF"))
			}
			if t := bytes.TrimSpace(b); len(t) > 0 {
				rec, perr := flattenObject(t)
				if perr != nil {
					return pl.brokenErr(line, perr)
				}
				if ferr := fn(line, rec); ferr != nil {
					return ferr
				}
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return openErr(pl.name, err)
		}
	}
}

func (pl *jsonPlan) array(ctx context.Context, r io.Reader, fn func(int64, []kv) error) error {
	cr := &lineCounter{r: r}
	dec := json.NewDecoder(cr)
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return pl.brokenErr(cr.lineAt(dec.InputOffset()), fmt.Errorf("the file does not start with an array: %w", err))
	}
	var n int64
	for dec.More() {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			off := dec.InputOffset()
			if se := (*json.SyntaxError)(nil); errors.As(err, &se) {
				off = se.Offset - 1
			}
			return pl.brokenErr(cr.lineAt(off), err)
		}
		n++
		rec, err := flattenObject(raw)
		if err != nil {
			return pl.brokenErr(cr.lineAt(dec.InputOffset()), fmt.Errorf("item %d: %w", n, err))
		}
		if n%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return engine.AsError(err)
			}
		}
		if err := fn(n, rec); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil {
		return pl.brokenErr(cr.lineAt(dec.InputOffset()), err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return pl.brokenErr(cr.lineAt(dec.InputOffset()), errors.New("there is more after the array's closing ]"))
	}
	return nil
}

// brokenErr is the error of a record that is not a JSON object.
func (pl *jsonPlan) brokenErr(line int64, err error) *engine.Error {
	what := "JSON Lines file"
	if pl.shape == jsonArray {
		what = "JSON file"
	}
	return importErr("%s: line %d is not valid JSON (%v); nothing was imported", pl.name, line, err).
		WithHint("fix line %d of the %s (each record must be a JSON object), then import it again", line, what).
		WithErr(err)
}

// lineCounter counts the lines of what a json.Decoder reads, so that an
// offset in the file gives its line.
type lineCounter struct {
	r     io.Reader
	n     int64   // bytes read
	nl    []int64 // offsets of the newlines in the last chunks
	lines int64   // newlines before nl[0]
}

func (c *lineCounter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	// Keep the newlines of the last 1 MiB: a decoder reads less ahead.
	cut := 0
	for cut < len(c.nl) && c.nl[cut] < c.n-(1<<20) {
		cut++
	}
	c.lines += int64(cut)
	c.nl = c.nl[cut:]
	for i, b := range p[:n] {
		if b == '\n' {
			c.nl = append(c.nl, c.n+int64(i))
		}
	}
	c.n += int64(n)
	return n, err
}

// lineAt is the 1-based line of offset off (within the last MiB read).
func (c *lineCounter) lineAt(off int64) int64 {
	l := c.lines + 1
	for _, o := range c.nl {
		if o >= off {
			break
		}
		l++
	}
	return l
}

// secondPass reads the file again, once it is as the first pass saw it,
// and yields the rows of the columns keep.
func (pl *jsonPlan) secondPass(ctx context.Context, keep []int, convs []*cellConv, yield func(row []engine.Value) error) error {
	f, err := os.Open(pl.path)
	if err != nil {
		return openErr(pl.name, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return openErr(pl.name, err)
	}
	if fi.Size() != pl.size || !fi.ModTime().Equal(pl.modTime) {
		return pl.changedErr("its size or modification time changed")
	}
	hr := &hashReader{r: f, h: sha256.New()}
	var cells []string
	var rows int64
	err = pl.records(ctx, hr, func(line int64, rec []kv) error {
		for _, p := range rec {
			if _, ok := pl.index[p.k]; !ok {
				return pl.changedErr(fmt.Sprintf("%s %d has a new key %q", pl.lineWord(), line, p.k))
			}
		}
		rows++
		cells = pl.cells(rec, cells)
		row := make([]engine.Value, len(keep))
		for k, j := range keep {
			v, ok := convs[k].convert(line, cells[j])
			if !ok {
				return pl.changedErr(fmt.Sprintf("%s %d, key %s holds %q, which is not %s like the rest of the column",
					pl.lineWord(), line, pl.keys[j], shown(cells[j]), convs[k].cv.typ))
			}
			row[k] = v
		}
		return yield(row)
	})
	if err != nil {
		return err
	}
	if rows != pl.rows || hex.EncodeToString(hr.h.Sum(nil)) != pl.sha {
		return pl.changedErr("its contents differ (sha256)")
	}
	return nil
}

func (pl *jsonPlan) changedErr(what string) *engine.Error {
	return importErr("%s changed while it was imported: %s; nothing was imported", pl.name, what).
		WithHint("import it again once nothing writes to it")
}
