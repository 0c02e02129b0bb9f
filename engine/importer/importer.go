// Package importer is the import use case: every input read first (each
// file's first pass: types), the analyst's choices applied, the plan shown
// (a preview writes nothing), then all the tables written in one
// all-or-nothing step by a Writer (engine/sqlite's). It keeps the first
// pass of the last preview, so that a preview follows the analyst's choices
// without reading the files again. Every face imports through it: the
// command line, the app and the browser mode.
package importer

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"querent/engine"
	"querent/engine/imports"
	"querent/engine/ingest"
	"querent/engine/words"
)

// Writer writes an import's tables into a database, all or nothing, and
// says beforehand what writing them would do (engine/sqlite's
// ImportWriter).
type Writer interface {
	// Write writes the tables into the database at target.
	Write(ctx context.Context, target string, tables []*imports.Table, opts imports.WriteOptions) (*imports.Report, error)
	// Check says, without writing, each table's name and what writing it
	// would do (created, replaced, appended), with warnings.
	Check(ctx context.Context, target string, tables []*imports.Table, opts imports.WriteOptions) ([]imports.TargetCheck, []string, error)
}

// defaultMaxMemory is an import's memory ceiling when none is given: 1 GB,
// the engine's default ceiling.
const defaultMaxMemory = 1 << 30

// Granter shares the process's memory ceiling: Grant waits for a share
// (at most want when want > 0) and returns it with its release
// (engine/worker's Budget).
type Granter interface {
	Grant(ctx context.Context, want int64) (n int64, release func(), err error)
}

// Options configure an Importer.
type Options struct {
	// MaxMemory bounds an import's memory when its request does not
	// (1 GB when zero).
	MaxMemory int64
	// Budget, when set, grants each preview and import its share of the
	// process's memory ceiling (at most the request's MaxMemory), which
	// its reading and writing bound themselves to.
	Budget Granter
}

// New returns an Importer that writes with w.
func New(w Writer, opts Options) *Importer {
	if opts.MaxMemory <= 0 {
		opts.MaxMemory = defaultMaxMemory
	}
	return &Importer{w: w, opts: opts}
}

// A preview reads at most this much of a CSV file, and this many data rows
// of each sheet: a 100 MB file's plan is there within 2 s (make bench), and
// says that it comes from a sample. Files under these sizes are read whole,
// and their first pass is the one the import uses.
const (
	PreviewSampleBytes = 8 << 20
	PreviewSampleRows  = 10_000
)

// importRead is an import read and its choices applied, not yet written.
type importRead struct {
	w       Writer
	sources []*ingest.Source
	tables  []*imports.Table
	skipped []bool // tables the analyst left out
	stop    error  // a policy error: the import must not go on
	sampled bool
}

func (r *importRead) close() {
	for _, s := range r.sources {
		s.Close()
	}
}

// grant takes the import's share of the process's memory ceiling and sets
// req.MaxMemory to it; release gives it back.
func (im *Importer) grant(ctx context.Context, req *imports.Request) (release func(), err error) {
	if im.opts.Budget == nil {
		return func() {}, nil
	}
	n, release, err := im.opts.Budget.Grant(ctx, req.MaxMemory)
	if err != nil {
		return nil, err
	}
	req.MaxMemory = n
	return release, nil
}

// readOptions are the ingest options for one input, from the request and
// the overrides naming that file.
func (im *Importer) readOptions(req imports.Request, in string, sample bool) ingest.Options {
	o := ingest.Options{Encoding: req.Encoding, Delimiter: req.Delimiter, Ragged: req.Ragged, Sheets: req.Sheets,
		Progress: req.Progress, MaxMemory: req.MaxMemory, HeaderRow: req.HeaderRow, Range: req.Range}
	if o.MaxMemory <= 0 {
		o.MaxMemory = im.opts.MaxMemory
	}
	if sample {
		o.SampleBytes, o.SampleRows = PreviewSampleBytes, PreviewSampleRows
	}
	for _, ov := range req.Overrides {
		if !sourceMatches(ov.Source, in) {
			continue
		}
		if ov.Encoding != "" {
			o.Encoding = ov.Encoding
		}
		if ov.Delimiter != "" {
			o.Delimiter = ov.Delimiter
		}
		if ov.Sheet == "" {
			if ov.HeaderRow != 0 {
				o.HeaderRow = ov.HeaderRow
			}
			if ov.Range != "" {
				o.Range = ov.Range
			}
			continue
		}
		if ov.HeaderRow != 0 || ov.Range != "" {
			if o.Layouts == nil {
				o.Layouts = map[string]ingest.Layout{}
			}
			l, ok := o.Layouts[ov.Sheet]
			if !ok {
				l = ingest.Layout{HeaderRow: o.HeaderRow, Range: o.Range}
			}
			if ov.HeaderRow != 0 {
				l.HeaderRow = ov.HeaderRow
			}
			if ov.Range != "" {
				l.Range = ov.Range
			}
			o.Layouts[ov.Sheet] = l
		}
	}
	return o
}

// sourceMatches says whether an override's Source names the input: ""
// matches every one; a base name, an input with that base name; a path,
// the same file.
func sourceMatches(source, in string) bool {
	switch {
	case source == "" || source == in:
		return true
	case filepath.Base(source) == source:
		return filepath.Base(in) == source
	}
	if filepath.Clean(source) == filepath.Clean(in) {
		return true
	}
	sa, err1 := os.Stat(source)
	sb, err2 := os.Stat(in)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}

// readImport reads every input (a sample of large ones when preview),
// then applies the choices.
func (im *Importer) readImport(ctx context.Context, req imports.Request, preview bool) (*importRead, error) {
	r := &importRead{w: im.w}
	for _, in := range req.Inputs {
		srcs, err := ingest.ReadSources(ctx, in, im.readOptions(req, in, preview))
		if err != nil {
			r.close()
			return nil, err
		}
		for _, s := range srcs {
			r.sampled = r.sampled || s.Sampled
		}
		r.sources = append(r.sources, srcs...)
	}
	if err := r.apply(req); err != nil {
		r.close()
		return nil, err
	}
	return r, nil
}

// apply applies the request's choices to the sources read.
func (r *importRead) apply(req imports.Request) error {
	r.tables, r.skipped, r.stop = nil, nil, nil
	inputOf := func(s *ingest.Source) string {
		for _, in := range req.Inputs {
			if in == s.Path {
				return in
			}
		}
		return s.Path
	}
	shared := make([]bool, len(req.Columns))
	used := make([]bool, len(req.Overrides))
	for _, s := range r.sources {
		var ch ingest.Choices
		ch.Shared = req.Columns
		skip := false
		for k, ov := range req.Overrides {
			if !sourceMatches(ov.Source, inputOf(s)) || ov.Sheet != "" && ov.Sheet != s.Sheet {
				continue
			}
			used[k] = true
			skip = skip || ov.Skip
			if ov.Table != "" {
				ch.Table = ov.Table
			}
			ch.Columns = append(ch.Columns, ov.Columns...)
			ch.Complete = ch.Complete || ov.Complete
		}
		t, matched, err := s.Apply(ch)
		if err != nil {
			if t == nil {
				return err
			}
			if r.stop == nil && !skip {
				r.stop = err
			}
		}
		r.skipped = append(r.skipped, skip)
		for k, m := range matched {
			shared[k] = shared[k] || m
		}
		r.tables = append(r.tables, t)
	}
	for k, ok := range shared {
		if !ok {
			return engine.Errorf(engine.CodeUsage, "no table of this import has a column %q", req.Columns[k].Column).
				SayHint(words.New("import.preview_column", words.Import.With(words.Preview)))
		}
	}
	for k, ok := range used {
		if !ok {
			ov := req.Overrides[k]
			what := ov.Source
			if ov.Sheet != "" {
				what += ", sheet " + ov.Sheet
			}
			return engine.Errorf(engine.CodeUsage, "the choices for %s match no table of this import", what).
				WithHint("check the file and sheet names")
		}
	}
	if len(r.written()) == 0 && len(r.tables) > 0 {
		return engine.Errorf(engine.CodeUsage, "every table of this import is left out").WithHint("keep at least one table")
	}
	// Two tables given the same name by the analyst.
	seen := map[string]string{}
	for i, t := range r.tables {
		if r.skipped[i] || !containsString(t.Overridden, "name") {
			continue
		}
		k := strings.ToLower(t.Name)
		if other, ok := seen[k]; ok {
			return engine.Errorf(engine.CodeUsage, "two tables would be named %s (%s and %s)", t.Name, other, describeTable(t)).
				WithHint("give each table its own name")
		}
		seen[k] = describeTable(t)
	}
	return nil
}

func describeTable(t *imports.Table) string {
	if t.Sheet != "" {
		return t.Source + ", sheet " + t.Sheet
	}
	return t.Source
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// written are the tables to write (those not left out).
func (r *importRead) written() []*imports.Table {
	var out []*imports.Table
	for i, t := range r.tables {
		if !r.skipped[i] {
			out = append(out, t)
		}
	}
	return out
}

func writeOptions(req imports.Request) imports.WriteOptions {
	return imports.WriteOptions{Table: req.Table, Replace: req.Replace, ReplaceUserTable: req.ReplaceUserTable,
		Append: req.Append, Progress: req.Progress, MaxMemory: req.MaxMemory}
}

// write writes the tables, all or nothing.
func (r *importRead) write(ctx context.Context, req imports.Request) (*imports.Report, error) {
	if r.stop != nil {
		return nil, r.stop
	}
	return r.w.Write(ctx, req.Target, r.written(), writeOptions(req))
}

// plan describes the import, and checks the target (read only).
func (r *importRead) plan(ctx context.Context, req imports.Request) *imports.Plan {
	p := &imports.Plan{PlanVersion: imports.PlanVersion, Database: req.Target, Tables: []imports.PlanTable{},
		Warnings: []string{}, Errors: []engine.ErrorDoc{}}
	if req.Target != "" {
		if abs, err := filepath.Abs(req.Target); err == nil {
			p.Database = abs
		}
	}
	var kept []int // the plan's tables to write
	for i, t := range r.tables {
		pt := t.Plan()
		if abs, err := filepath.Abs(pt.SourcePath); err == nil {
			pt.SourcePath = abs
		}
		pt.Skip = r.skipped[i]
		p.Tables = append(p.Tables, pt)
		if pt.Skip {
			continue
		}
		kept = append(kept, i)
		p.Warnings = append(p.Warnings, t.Warnings...)
	}
	if req.Table != "" && len(kept) == 1 {
		pt := &p.Tables[kept[0]]
		pt.Name = req.Table
		pt.Overridden = append([]string{"name"}, pt.Overridden...)
	}
	if r.stop != nil {
		p.Errors = append(p.Errors, engine.NewErrorDoc(r.stop))
	}
	if req.Target != "" && len(kept) > 0 {
		checks, warnings, err := r.w.Check(ctx, req.Target, r.written(), writeOptions(req))
		if err != nil {
			p.Errors = append(p.Errors, engine.NewErrorDoc(err))
		} else {
			for k, c := range checks {
				p.Tables[kept[k]].Name, p.Tables[kept[k]].Action = c.Name, c.Action
			}
			p.Warnings = append(p.Warnings, warnings...)
		}
	}
	return p
}

// Importer previews and imports (for one window, one command): it keeps
// the files of the last preview read (their first pass), so that the
// preview follows the analyst's choices without reading the files again,
// and the import that follows a preview of files read whole reads them
// only once more (its second pass), not twice.
type Importer struct {
	w    Writer
	opts Options
	mu   sync.Mutex
	last *cachedRead
}

// cachedRead is a preview's first pass, and what it depends on.
type cachedRead struct {
	key   string
	stats []fileStat
	r     *importRead
}

type fileStat struct {
	path string
	size int64
	mod  time.Time
}

// readKey is what a first pass depends on: the inputs and how they are
// read (not the column choices, which apply to the sources read).
func readKey(req imports.Request) string {
	type ov struct {
		Source, Sheet, Encoding, Delimiter, Range string
		HeaderRow                                 int
	}
	var ovs []ov
	for _, o := range req.Overrides {
		if o.Encoding != "" || o.Delimiter != "" || o.Range != "" || o.HeaderRow != 0 {
			ovs = append(ovs, ov{o.Source, o.Sheet, o.Encoding, o.Delimiter, o.Range, o.HeaderRow})
		}
	}
	b, _ := json.Marshal(struct {
		Inputs, Sheets                     []string
		Encoding, Delimiter, Ragged, Range string
		HeaderRow                          int
		Overrides                          []ov
	}{req.Inputs, req.Sheets, req.Encoding, req.Delimiter, req.Ragged, req.Range, req.HeaderRow, ovs})
	return string(b)
}

func statFiles(paths []string) []fileStat {
	out := make([]fileStat, len(paths))
	for i, p := range paths {
		out[i].path = p
		if st, err := os.Stat(p); err == nil {
			out[i].size, out[i].mod = st.Size(), st.ModTime()
		}
	}
	return out
}

func sameStats(a, b []fileStat) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].path != b[i].path || a[i].size != b[i].size || !a[i].mod.Equal(b[i].mod) {
			return false
		}
	}
	return true
}

// take returns the cached first pass for req when the files are unchanged
// (and forgets it when anything differs).
func (im *Importer) take(req imports.Request, whole bool) *importRead {
	c := im.last
	if c == nil {
		return nil
	}
	if c.key != readKey(req) || !sameStats(c.stats, statFiles(req.Inputs)) || whole && c.r.sampled {
		im.drop()
		return nil
	}
	return c.r
}

func (im *Importer) drop() {
	if im.last != nil {
		im.last.r.close()
		im.last = nil
	}
}

// Preview says what Import would do, writing nothing: the plan of every
// table (how each file is read, its columns with their types, reasons and
// bad values, the first rows as they will be stored, the table's name and
// what writing it would do in req.Target). Large files are sampled
// (PlanTable.Sampled). What would stop the import (a bad value under the
// policy "error", a table that exists) is in the plan's errors; the error
// returned is one that leaves nothing to show (a file that cannot be read,
// a choice that names no column). The first pass is kept for the next call.
func (im *Importer) Preview(ctx context.Context, req imports.Request) (*imports.Plan, error) {
	defer ingest.CleanupTemp()
	im.mu.Lock()
	defer im.mu.Unlock()
	r := im.take(req, false)
	if r != nil {
		if err := r.apply(req); err != nil {
			return nil, err
		}
		return r.plan(ctx, req), nil
	}
	stats := statFiles(req.Inputs)
	release, err := im.grant(ctx, &req)
	if err != nil {
		return nil, err
	}
	defer release()
	r, err = im.readImport(ctx, req, true)
	if err != nil {
		return nil, err
	}
	im.last = &cachedRead{key: readKey(req), stats: stats, r: r}
	return r.plan(ctx, req), nil
}

// Import carries out an import: every input is read first (each file's
// first pass: types; the last preview's, when it read the same files whole
// and they have not changed since), the analyst's choices applied, so that
// a bad file or a bad value under the policy "error" stops the import
// before anything is written, then all the tables are written in one
// all-or-nothing step. Its memory is bounded by req.MaxMemory, else the
// Importer's.
func (im *Importer) Import(ctx context.Context, req imports.Request) (*imports.Report, error) {
	defer ingest.CleanupTemp()
	release, err := im.grant(ctx, &req)
	if err != nil {
		return nil, err
	}
	defer release()
	im.mu.Lock()
	r := im.take(req, true)
	im.last = nil // a first pass is written once (an XLSX sheet's rows are consumed)
	im.mu.Unlock()
	if r == nil {
		if r, err = im.readImport(ctx, req, false); err != nil {
			return nil, err
		}
	}
	defer r.close()
	if err := r.apply(req); err != nil {
		return nil, err
	}
	return r.write(ctx, req)
}

// Close removes what the last preview keeps.
func (im *Importer) Close() {
	im.mu.Lock()
	defer im.mu.Unlock()
	im.drop()
}
