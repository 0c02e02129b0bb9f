package ingest

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"

	"querent/engine"
	"querent/engine/imports"
	"querent/engine/words"
)

// Source is one table of a file after its first pass (a CSV file, or a
// sheet of a workbook): how it was read, its columns with what their
// values are, and its first rows, before the analyst's choices are
// applied. Apply applies them and gives the table to write; it can be
// called again with other choices without reading the file again.
type Source struct {
	// Name is the proposed table name (from the file's stem or the sheet).
	Name string
	// File is the file's base name, Path its path, SHA256 its hash (""
	// for a sample), Sheet the sheet's name ("" for CSV).
	File, Path, SHA256, Sheet string
	// Layout is how the file was read; Chosen names the parts of it the
	// analyst chose ("encoding", "delimiter", "header_row", "range").
	Layout imports.Layout
	Chosen []string
	// Rows is the number of data rows (estimated when Sampled).
	Rows int64
	// Sampled is true when only the start of the file was read (a
	// preview of a large file); SampleRows counts the rows read.
	Sampled    bool
	SampleRows int64
	// Warnings are about the file.
	Warnings []string

	cols      []*srcColumn
	head      [][]string // the first data rows, raw: one cell per column (nil: padding)
	headLines []int64
	lineWord  string // "line" (CSV) or "row" (XLSX)
	// stream runs the second pass: the rows, the columns keep (in order)
	// converted by convs.
	stream  func(ctx context.Context, keep []int, convs []*cellConv, yield func(row []engine.Value) error) error
	release func()
}

// srcColumn is one column of a source.
type srcColumn struct {
	pos      int    // 1-based position in the file (for XLSX, the sheet's column)
	header   string // the header as written ("" for none)
	original string // the header as reports show it (with an XLSX group title)
	name     string // the safe name Querent gives it
	inf      *Inferrer
	empty    bool // no header and no value
	// reason rewords the Inferrer's reason for the source (XLSX: rows,
	// not lines; date cells); nil keeps it.
	reason func(typ string, reason seq) seq
}

// Close removes what the source keeps on disk (an XLSX sheet's rows); a
// table from Apply cannot stream its rows after it.
func (s *Source) Close() {
	if s.release != nil {
		s.release()
	}
}

// Choices are what the analyst chose for one source's table.
type Choices struct {
	// Table names the table ("" keeps Source.Name).
	Table string
	// Columns are choices for its columns; each must name one of them.
	Columns []imports.ColumnOverride
	// Shared are choices for the columns of every table that has them:
	// those naming no column of this one are left alone. They are applied
	// after Columns, so they win.
	Shared []imports.ColumnOverride
	// Complete says that Columns names every column (a plan replayed):
	// the others are imported as detected, with a warning.
	Complete bool
}

// previewRows keeps a source's first rows for its preview, within bounds
// whatever the file holds: a value is kept to previewCellMax bytes (cut on
// a character, with …), and the rows to previewBytesMax in all.
type previewRows struct {
	rows  [][]string
	lines []int64
	bytes int
}

const (
	previewCellMax  = 2 << 10
	previewBytesMax = 4 << 20
)

// full reports whether no more rows are kept.
func (h *previewRows) full() bool {
	return len(h.rows) >= imports.PreviewRows || h.bytes >= previewBytesMax
}

// add keeps a row (cells as the reader has them) unless full.
func (h *previewRows) add(line int64, n int, cell func(j int) string) {
	if h.full() {
		return
	}
	row := make([]string, n)
	for j := range row {
		c := cell(j)
		if len(c) > previewCellMax {
			cut := previewCellMax
			for cut > 0 && !utf8.RuneStart(c[cut]) {
				cut--
			}
			c = c[:cut] + "…"
		}
		row[j] = strings.Clone(c)
		h.bytes += len(c) + 16
	}
	h.rows = append(h.rows, row)
	h.lines = append(h.lines, line)
}

// cellConv converts one column's cells in the second pass, and counts the
// values that do not fit when they are stored as NULL.
type cellConv struct {
	cv      *converter
	nullBad bool
	bad     badList
}

// convert converts s, from line; ok is false when s does not fit and the
// column does not store bad values as NULL.
func (c *cellConv) convert(line int64, s string) (engine.Value, bool) {
	v, ok := c.cv.convert(s)
	if ok {
		return v, true
	}
	if c.nullBad {
		c.bad.add(line, s, whyNot{})
		return nil, true
	}
	return nil, false
}

// planned is one column of the table Apply makes.
type planned struct {
	col     *srcColumn
	skip    bool
	skipWhy part // why it is skipped, in parts
	byUser  bool // skipped or kept by the analyst
	keep    bool // kept though empty
	name    string
	renamed bool
	typ     string // stored type
	chosen  string // the type the analyst chose ("" none)
	onBad   string
	reason  part // why it has its type, in parts
	cv      *converter
	nullBad bool
	bad     badList
	atLeast bool
	conv    int64 // values converted
	kept    int64 // values kept as text
	over    []string
}

var usableName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// CheckName checks a name the analyst gives a column or table: letters,
// digits and _, not starting with a digit, not an SQL keyword, not
// reserved by SQLite or Querent. The error proposes a usable one.
func CheckName(what, name string) error {
	n := strings.TrimSpace(name)
	low := strings.ToLower(n)
	if usableName.MatchString(n) && !reservedWords[low] && !strings.HasPrefix(low, "sqlite_") && !strings.HasPrefix(low, "_querent_") {
		return nil
	}
	alt := ColumnNames([]string{name})[0]
	if what == "table" {
		alt = TableName(name)
	}
	why := "use letters, digits and _, not starting with a digit"
	switch {
	case reservedWords[low]:
		why = "it is an SQL keyword, which would need quotes in every query"
	case strings.HasPrefix(low, "sqlite_") || strings.HasPrefix(low, "_querent_"):
		why = "names starting with sqlite_ or _querent_ are reserved"
	}
	return engine.Errorf(engine.CodeUsage, "%q cannot name a %s: %s", name, what, why).WithHint("for example %s", alt)
}

// find returns the column a choice names: "#N" by position, else its
// header as written, else its name, else its header ignoring case and
// spaces; -1 when none, -2 when several headers match.
func (s *Source) find(which string) int {
	w := strings.TrimSpace(which)
	if strings.HasPrefix(w, "#") {
		if n, err := strconv.Atoi(w[1:]); err == nil {
			for i, c := range s.cols {
				if c.pos == n {
					return i
				}
			}
		}
		return -1
	}
	match := func(eq func(c *srcColumn) bool) int {
		found := -1
		for i, c := range s.cols {
			if eq(c) {
				if found >= 0 {
					return -2
				}
				found = i
			}
		}
		return found
	}
	if i := match(func(c *srcColumn) bool { return c.original == which || c.header == which }); i != -1 {
		return i
	}
	if i := match(func(c *srcColumn) bool { return strings.EqualFold(c.name, w) }); i != -1 {
		return i
	}
	return match(func(c *srcColumn) bool {
		return w != "" && (strings.EqualFold(strings.TrimSpace(c.original), w) || strings.EqualFold(strings.TrimSpace(c.header), w))
	})
}

func (s *Source) where() string {
	if s.Sheet != "" {
		return s.File + ", sheet " + strconv.Quote(s.Sheet)
	}
	return s.File
}

// columnList names the columns for a hint.
func (s *Source) columnList() string {
	var names []string
	for i, c := range s.cols {
		if i == 12 {
			names = append(names, "…")
			break
		}
		names = append(names, c.name)
	}
	return strings.Join(names, ", ")
}

// Apply applies the analyst's choices: it gives the table to write, with
// its columns (names, types, policies), what is skipped and why, the
// first rows as they will be stored, and, unless the source is a sample,
// the second pass. matched says which of ch.Shared named a column here.
//
// A type chosen for a column whose values do not all fit it follows the
// column's policy: OnBadText keeps the column as text (with a reason
// naming the values), OnBadNull stores them as NULL (counted and listed),
// OnBadError is an error, returned here, before anything is written.
func (s *Source) Apply(ch Choices) (t *imports.Table, matched []bool, err error) {
	ps := make([]*planned, len(s.cols))
	for i, c := range s.cols {
		ps[i] = &planned{col: c, name: c.name, onBad: imports.OnBadText}
	}
	named, matched, err := s.applyChoices(ps, ch)
	if err != nil {
		return nil, nil, err
	}
	var warnings []string
	if ch.Complete {
		warnings = append(warnings, s.notInPlan(ps, named)...)
	}
	warnings = append(warnings, s.skipEmpty(ps)...)
	if err := s.checkNames(ps); err != nil {
		return nil, nil, err
	}
	stop, err := s.decideTypes(ps)
	if err != nil {
		return nil, nil, err
	}

	t, err = s.newTable(ch.Table, warnings)
	if err != nil {
		return nil, nil, err
	}
	keep, kept := s.addColumns(t, ps)
	t.Preview = s.previewRows(ps)
	if s.Sampled {
		t.Rows = func(context.Context, func([]engine.Value) error) error {
			return engine.Errorf(engine.CodeInternal, "%s: a preview read only a sample; the import reads the whole file", s.where())
		}
		return t, matched, stop
	}
	t.Rows = s.storedRows(t, keep, kept)
	return t, matched, stop
}

// applyChoices applies the table's own choices of columns, then the shared
// ones (the command line's flags over a plan's). named says which columns
// a choice named, matched which of ch.Shared named one here.
func (s *Source) applyChoices(ps []*planned, ch Choices) (named, matched []bool, err error) {
	named = make([]bool, len(s.cols))
	for _, o := range ch.Columns {
		if _, err := s.applyChoice(ps, named, o, true); err != nil {
			return nil, nil, err
		}
	}
	matched = make([]bool, len(ch.Shared))
	for k, o := range ch.Shared {
		ok, err := s.applyChoice(ps, named, o, false)
		if err != nil {
			return nil, nil, err
		}
		matched[k] = ok
	}
	return named, matched, nil
}

// applyChoice applies o to the column it names, and reports whether it
// names one; a choice that must name one (the table's own) and does not is
// an error, as is one that names several.
func (s *Source) applyChoice(ps []*planned, named []bool, o imports.ColumnOverride, must bool) (bool, error) {
	i := s.find(o.Column)
	switch {
	case i == -2:
		return false, engine.Errorf(engine.CodeUsage, "%s: several columns have the header %q", s.where(), o.Column).
			WithHint("name the column by its name or its position (#N): %s", s.columnList())
	case i < 0 && must:
		return false, engine.Errorf(engine.CodeUsage, "%s has no column %q", s.where(), o.Column).
			WithHint("its columns are %s (or name one by its position, #1…)", s.columnList())
	case i < 0:
		return false, nil
	}
	named[i] = true
	if err := ps[i].choose(o); err != nil {
		return false, err
	}
	return true, nil
}

// choose applies a choice to the column: its name, its type, its policy
// for bad values, and whether it is skipped or kept.
func (p *planned) choose(o imports.ColumnOverride) error {
	if o.Name != "" && o.Name != p.col.name {
		if err := CheckName("column", o.Name); err != nil {
			return err
		}
		p.name, p.renamed = strings.TrimSpace(o.Name), true
	}
	if o.Type != "" {
		typ, ok := imports.ParseType(o.Type)
		if !ok {
			return engine.Errorf(engine.CodeUsage, "unknown type %q for column %s", o.Type, p.col.name).
				WithHint("use text, integer, real, date, datetime or boolean")
		}
		p.chosen = typ
	}
	if o.OnBad != "" {
		pol, ok := imports.ParseOnBad(o.OnBad)
		if !ok {
			return engine.Errorf(engine.CodeUsage, "unknown bad-value policy %q for column %s", o.OnBad, p.col.name).
				WithHint("use text (keep the column as text), null (store bad values as NULL) or error (stop)")
		}
		p.onBad = pol
	}
	switch {
	case o.Skip:
		p.skip, p.byUser = true, true
	case o.Keep || o.Type != "" || o.Name != "":
		// A column named with a type or a name is wanted: kept even
		// when empty, and no longer skipped by an earlier choice.
		p.keep, p.skip, p.byUser = true, false, false
	}
	return nil
}

// notInPlan warns of the columns a complete plan does not name, imported
// as detected (an empty column without a header aside).
func (s *Source) notInPlan(ps []*planned, named []bool) []string {
	var extra []string
	for i, p := range ps {
		if !named[i] && !(p.col.empty && p.col.header == "") {
			extra = append(extra, p.col.name)
		}
	}
	if len(extra) == 0 {
		return nil
	}
	return []string{fmt.Sprintf("%s: %s not in the plan, imported as detected: %s", s.where(),
		map[bool]string{true: "a column is", false: "columns are"}[len(extra) == 1], strings.Join(extra, ", "))}
}

// skipEmpty applies the empty-column rule (an empty column no choice keeps
// is skipped), says why each skipped column is, and warns of the empty
// ones.
func (s *Source) skipEmpty(ps []*planned) []string {
	var empties []string
	for _, p := range ps {
		if p.col.empty && !p.keep && !p.skip {
			p.skip, p.skipWhy = true, say("skip_empty")
			empties = append(empties, s.label(p.col))
		}
		if p.skip && p.skipWhy == nil {
			p.skipWhy = say("skip_analyst")
		}
	}
	if len(empties) == 0 {
		return nil
	}
	return []string{fmt.Sprintf("%s: %s with neither a header nor values %s left out: %s", s.where(),
		countNoun(int64(len(empties)), "empty column", "empty columns"),
		map[bool]string{true: "was", false: "were"}[len(empties) == 1], strings.Join(empties, ", "))}
}

// checkNames refuses two columns kept under one name (in any case).
func (s *Source) checkNames(ps []*planned) error {
	seen := map[string]*planned{}
	for _, p := range ps {
		if p.skip {
			continue
		}
		key := strings.ToLower(p.name)
		if q := seen[key]; q != nil {
			return engine.Errorf(engine.CodeUsage, "%s: two columns would be named %s (%s and %s)", s.where(), p.name,
				describeCol(q.col), describeCol(p.col)).WithHint("rename one of them, or skip one")
		}
		seen[key] = p
	}
	return nil
}

// decideTypes decides each column's type. A bad value under the policy
// error stops the import (stop: the first), but the table is still
// described (a preview shows it with the error); any other error is err.
func (s *Source) decideTypes(ps []*planned) (stop, err error) {
	for _, p := range ps {
		if p.skip {
			p.chosen = ""
			s.detected(p)
			continue
		}
		if err := s.decide(p); err != nil {
			if engine.ErrorCode(err) != engine.CodeImport {
				return nil, err
			}
			if stop == nil {
				stop = err
			}
		}
	}
	return stop, nil
}

// newTable is the table of the source, named as the analyst chose (table,
// "" for the proposed name), with the source's warnings and then those of
// the choices.
func (s *Source) newTable(table string, warnings []string) (*imports.Table, error) {
	t := &imports.Table{
		Name: s.Name, Source: s.File, SourcePath: s.Path, SourceSHA256: s.SHA256, Sheet: s.Sheet,
		RowCount: s.Rows, Layout: s.Layout, Sampled: s.Sampled, SampleRows: s.SampleRows,
		Warnings: append(append([]string{}, s.Warnings...), warnings...),
	}
	t.Overridden = append(t.Overridden, s.Chosen...)
	if table != "" && table != s.Name {
		if err := CheckName("table", table); err != nil {
			return nil, err
		}
		t.Name = strings.TrimSpace(table)
		t.Overridden = append([]string{"name"}, t.Overridden...)
	}
	return t, nil
}

// addColumns describes every column in t's preview, and adds each to t's
// columns or to those skipped (with why). It returns the columns kept: their
// indexes in the source, and their plans.
func (s *Source) addColumns(t *imports.Table, ps []*planned) (keep []int, kept []*planned) {
	for i, p := range ps {
		pc := s.planColumn(p)
		t.PreviewColumns = append(t.PreviewColumns, pc)
		if p.skip {
			why, whys := sayAll(p.skipWhy, s.rows())
			t.Skipped = append(t.Skipped, imports.SkippedColumn{Position: p.col.pos, OriginalName: p.col.original,
				Name: p.name, Reason: why, Reasons: whys, ByAnalyst: p.byUser})
			continue
		}
		keep = append(keep, i)
		kept = append(kept, p)
		t.Columns = append(t.Columns, pc.Column)
	}
	return keep, kept
}

// storedRows is t's Rows: the source's second pass over the columns kept,
// each converted by its own converter. Afterwards the counts of what was
// stored as NULL are exact, from the rows themselves, in t's columns.
func (s *Source) storedRows(t *imports.Table, keep []int, kept []*planned) func(context.Context, func([]engine.Value) error) error {
	return func(ctx context.Context, yield func([]engine.Value) error) error {
		convs := make([]*cellConv, len(kept))
		ncols := max(len(kept), 1)
		for k, p := range kept {
			cv := *p.cv
			cv.cache = valueCache{max: min(cacheMax, cacheTotal/ncols)}
			convs[k] = &cellConv{cv: &cv, nullBad: p.nullBad}
		}
		if err := s.stream(ctx, keep, convs, yield); err != nil {
			return err
		}
		// The counts of what was stored: exact, from the rows themselves.
		for k, c := range convs {
			if !c.nullBad {
				continue
			}
			col := &t.Columns[k]
			p := kept[k]
			col.BadValues, col.BadAt, col.BadAtLeast = c.bad.n, c.bad.values(), false
			col.Converted = p.conv + p.bad.n - c.bad.n
			col.Reason, col.Reasons = sayAll(s.nullReason(p, c.bad, false), s.rows())
		}
		return nil
	}
}

// label names a column by its place: the sheet's column letter, or the
// CSV column's name.
func (s *Source) label(c *srcColumn) string {
	if s.lineWord == "row" {
		if l, err := excelize.ColumnNumberToName(c.pos); err == nil {
			return l
		}
	}
	return c.name
}

func describeCol(c *srcColumn) string {
	if c.original != "" {
		return strconv.Quote(c.original)
	}
	return "#" + strconv.Itoa(c.pos)
}

// detected gives a column the type inference chose.
func (s *Source) detected(p *planned) {
	inf := p.col.inf
	typ, reason := inf.result()
	if p.col.reason != nil {
		reason = p.col.reason(typ, reason)
	}
	p.typ, p.reason, p.cv = typ, reason, inf.converter()
	p.conv, p.kept = inf.Counts()
}

// decide gives a kept column its type, converter, counts and reason; the
// error is the policy error's, with p described as if it passed.
func (s *Source) decide(p *planned) error {
	inf := p.col.inf
	typ, _ := inf.Result()
	values := inf.n - inf.blank - inf.missing
	if p.chosen == "" || p.chosen == typ {
		s.detected(p)
		p.chosen = ""
		return nil
	}
	ch := inf.choose(p.chosen)
	what := strings.ToUpper(p.chosen[:1]) + strings.ToLower(p.chosen[1:])
	var notes part
	if ch.note != nil {
		notes = say("note", ch.note)
	}
	if ch.bad.n == 0 {
		p.typ, p.cv = p.chosen, ch.cv
		if p.chosen == imports.TypeText {
			p.conv, p.kept = 0, inf.n-inf.blank
			p.reason = say("text_chosen", val(typ))
		} else {
			p.conv = values
			p.reason = seq{say("all_fit", val(what), count(values), ch.words), notes, inf.missingNote()}
		}
		p.over = append(p.over, "type")
		return nil
	}
	p.bad, p.atLeast = ch.bad, ch.atLeast
	switch p.onBad {
	case imports.OnBadNull:
		p.typ, p.cv, p.nullBad = p.chosen, ch.cv, true
		p.conv = values - ch.bad.n
		p.reason = seq{s.nullReason(p, ch.bad, ch.atLeast), notes}
	case imports.OnBadError:
		p.typ, p.cv = p.chosen, ch.cv
		p.conv = values - ch.bad.n
		p.over = append(p.over, "type")
		p.reason = say("stops", val(p.chosen), s.countBad(ch), typeWords(p.chosen), s.listBad(ch.bad))
		o := ch.bad.at[0]
		more := ""
		if ch.bad.n > 1 {
			etc := ""
			if ch.bad.n > int64(ch.bad.k) {
				etc = ", …"
			}
			more = fmt.Sprintf(" (%s values in all, on %ss %s%s)", english(s.countBad(ch), false), s.lineWord, ch.bad.lines(), etc)
		}
		return engine.Errorf(engine.CodeImport, "%s, column %s: %s %d holds %s, which is not %s%s", s.where(), p.col.name,
			s.lineWord, o.line, words.English(words.Quoted(o.value)), english(typeWords(p.chosen), false), more).
			SayHint(words.New("import.null_bad", words.Column.With(`"`+p.col.name+":"+strings.ToLower(p.chosen)+`:null-bad"`)))
	default:
		s.detected(p)
		reason := p.reason
		if typ != imports.TypeText {
			// Chosen over a typed column (an INTEGER wanted for decimals):
			// the detected type holds every value, so it stays.
			p.reason = say("detected_kept", reason, s.countBad(ch), typeWords(p.chosen), s.listBad(ch.bad))
		} else {
			p.reason = say("text_kept", val(p.chosen), s.countBad(ch), typeWords(p.chosen), s.listBad(ch.bad))
		}
	}
	p.over = append(p.over, "type")
	return nil
}

func (s *Source) countBad(ch choice) part {
	if ch.atLeast {
		return say("at_least", count(ch.bad.n))
	}
	return count(ch.bad.n)
}

// rows says whether the source's reasons say rows (of a sheet) rather
// than lines (of a file).
func (s *Source) rows() bool { return s.lineWord == "row" }

// listBad words the first bad values: `line 212 "Aug. 1981", line 300 "?"`.
func (s *Source) listBad(b badList) part {
	items := make([]part, b.k)
	for i, o := range b.at[:b.k] {
		items[i] = say("bad_at", lineAt(o.line), quoted(o.value))
	}
	r := seq{list{sep: "comma", items: items}}
	if b.n > int64(b.k) {
		r = append(r, say("etc"))
	}
	return r
}

// nullReason words a column whose bad values are stored as NULL.
func (s *Source) nullReason(p *planned, bad badList, atLeast bool) part {
	inf := p.col.inf
	values := inf.n - inf.blank - inf.missing
	ch := inf.choose(p.chosen)
	n := say("null_that_1")
	if bad.n != 1 {
		n = say("null_that_n", count(bad.n))
		if atLeast {
			n = say("null_that_least", count(bad.n))
		}
	}
	if bad.n == 0 {
		return seq{say("all_fit", val(p.chosen), count(values), ch.words), inf.missingNote()}
	}
	return seq{say("some_null", val(p.chosen), count(values-bad.n), count(values), ch.words, n, s.listBad(bad)),
		inf.missingNote()}
}

// typeWords names what values of a type are.
func typeWords(typ string) part {
	switch typ {
	case imports.TypeInteger:
		return say("a_whole_number")
	case imports.TypeReal:
		return say("a_number")
	case imports.TypeDate:
		return say("a_date")
	case imports.TypeDateTime:
		return say("a_date_time")
	case imports.TypeBoolean:
		return say("a_yes_no")
	}
	return say("text")
}

// planColumn describes a column for the report and the preview.
func (s *Source) planColumn(p *planned) imports.PlanColumn {
	typ, _ := p.col.inf.Result()
	c := imports.PlanColumn{Column: imports.Column{
		Name: p.name, OriginalName: p.col.original, Type: p.typ, Converted: p.conv, KeptAsText: p.kept,
		Position: p.col.pos, DetectedType: typ, OnBad: p.onBad, BadAt: []imports.BadValue{},
		Overridden: []string{},
	}}
	c.Reason, c.Reasons = sayAll(p.reason, s.rows())
	if p.renamed {
		c.Overridden = append(c.Overridden, "name")
	}
	c.Overridden = append(c.Overridden, p.over...)
	if p.onBad != imports.OnBadText {
		c.Overridden = append(c.Overridden, "on_bad")
	}
	if p.bad.n > 0 {
		c.BadValues, c.BadAt, c.BadAtLeast = p.bad.n, p.bad.values(), p.atLeast
	}
	if p.chosen != "" && p.typ != p.chosen {
		c.ChosenType = p.chosen
	}
	if p.skip {
		c.Skip = true
		c.SkipReason, c.SkipReasons = sayAll(p.skipWhy, s.rows())
		if p.byUser {
			c.Overridden = append(c.Overridden, "skip")
		}
	} else if p.keep && p.col.empty {
		c.Overridden = append(c.Overridden, "keep")
	}
	if c.Type == imports.TypeText && !p.skip {
		c.Suggested = p.col.inf.Suggested()
	}
	return c
}

// previewRows converts the first rows as they will be stored (every
// column, skipped ones with their detected type).
func (s *Source) previewRows(ps []*planned) [][]engine.Value {
	convs := make([]*cellConv, len(ps))
	for i, p := range ps {
		cv := p.cv
		if cv == nil {
			cv = p.col.inf.converter()
		}
		c := *cv
		c.cache = valueCache{}
		convs[i] = &cellConv{cv: &c, nullBad: true}
	}
	rows := make([][]engine.Value, 0, len(s.head))
	for r, raw := range s.head {
		row := make([]engine.Value, len(ps))
		for i := range ps {
			if i >= len(raw) {
				continue
			}
			v, ok := convs[i].convert(s.headLines[r], raw[i])
			if !ok {
				v = strings.Clone(raw[i])
			}
			row[i] = v
		}
		rows = append(rows, row)
	}
	return rows
}
