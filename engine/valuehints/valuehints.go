package valuehints

// Value hints: questions name values the way people say them ("brasil",
// "acdc", "rock"), while the database stores them its own way ('Brazil',
// 'AC/DC', 'Rock'), in a column the model cannot guess. An index of the
// stored text values lets the prompt say which stored value, in which
// column, the question means.

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"querent/engine"
	"querent/engine/schemactx"
	"querent/engine/sqltext"
	"querent/engine/text"
)

// IndexOptions bound BuildIndex. Zero fields take the defaults.
type IndexOptions struct {
	// MaxDistinct skips a column with more distinct text values than this
	// (default 5,000): names of individual things (artists, tracks) are
	// kept; free text (comments, descriptions) is not.
	MaxDistinct int
	// MaxValueLen leaves out values longer than this many characters
	// (default 100).
	MaxValueLen int
	// Budget bounds the time of the whole build (default 2 s). Columns not
	// read when it runs out are left out of the index (see Skipped); each
	// column gets at most a quarter of it (at least 50 ms), so that one slow
	// column does not starve the others.
	Budget time.Duration
	// MaxScanRows bounds the rows read per column (default 1,000,000): in
	// a larger table only the values of the first rows are indexed.
	MaxScanRows int64
	// MaxValues bounds the distinct values kept in all (default 100,000),
	// which bounds the memory: each distinct text is stored once, with its
	// normalised form when that differs, so at most about 100,000 × (100 + 100
	// + 64) bytes ≈ 26 MB, and far less in practice (Chinook: about 0.5 MB).
	MaxValues int
}

func (o IndexOptions) withDefaults() IndexOptions {
	if o.MaxDistinct <= 0 {
		o.MaxDistinct = 5000
	}
	if o.MaxValueLen <= 0 {
		o.MaxValueLen = 100
	}
	if o.Budget <= 0 {
		o.Budget = 2 * time.Second
	}
	if o.MaxScanRows <= 0 {
		o.MaxScanRows = 1_000_000
	}
	if o.MaxValues <= 0 {
		o.MaxValues = 100_000
	}
	return o
}

// ValueIndex holds the distinct short text values of a database's user
// tables, normalised for matching words of questions. Build it once per
// database (BuildIndex) and reuse it for every question; it is
// read-only after the build and safe for concurrent use (Continue, which
// indexes the columns a build did not reach, returns a new one).
type Index struct {
	cols    []indexedColumn
	values  []storedValue
	byKey   map[string][]int32 // normalised key → values
	byFirst map[rune][]int32   // first rune of the key → values, for typo matching
	schema  map[string]bool    // stemmed words of the tables' and columns' names
	skipped []string
	pending []pendingColumn // text columns the budget did not reach (Continue)
	full    bool            // MaxValues reached: no more columns are indexed
	dialect string          // the database's SQL dialect, for the hints' names
}

type indexedColumn struct {
	table, column string
	distinct      int
	prior         float64 // up to 0.4 for few distinct values (a category)
	label         bool    // names or unique labels of the table's rows
	tableWords    []string
	columnWords   []string
	listed        map[string]bool // values the schema lists (the prompt shows them)
}

type storedValue struct {
	text   string
	key    string  // lowercase letters and digits, accents removed, words joined
	keyLen int32   // runes in key
	cols   []int32 // columns holding it, in schema order
}

// Hint is a stored value that a question mentions.
type Hint struct {
	Table, Column string
	// Dialect is the SQL dialect the hint is written in ("" is SQLite).
	Dialect string
	// Value is the value exactly as stored.
	Value string
	// Matched is the question's words that name it, as typed.
	Matched string
	// Exact is true when Matched and Value are the same after normalising
	// (case, accents, punctuation and spaces ignored); false for a match
	// that tolerates a typo.
	Exact bool
	// AlsoIn lists other columns ("Table.Column") holding the same value.
	AlsoIn []string
}

// String describes the hint for a prompt:
//
//	Customer.Country = 'Brazil' (the question says "brasil"; also in Invoice.BillingCountry)
func (h Hint) String() string {
	var b strings.Builder
	b.WriteString(schemactx.TableIdent(h.Dialect, h.Table))
	b.WriteByte('.')
	b.WriteString(schemactx.Ident(h.Dialect, h.Column))
	b.WriteString(" = ")
	b.WriteString(schemactx.Quote(h.Value, 1<<20))
	var notes []string
	if h.Matched != h.Value {
		notes = append(notes, `the question says "`+schemactx.Clean(h.Matched)+`"`)
	}
	if len(h.AlsoIn) > 0 {
		notes = append(notes, "also in "+schemactx.Clean(strings.Join(h.AlsoIn, ", ")))
	}
	if len(notes) > 0 {
		b.WriteString(" (")
		b.WriteString(strings.Join(notes, "; "))
		b.WriteByte(')')
	}
	return b.String()
}

// Len is the number of distinct values in the index.
func (vi *Index) Len() int {
	if vi == nil {
		return 0
	}
	return len(vi.values)
}

// Skipped lists the text columns left out of the index and why
// ("Track.Composer: more than 5000 distinct values").
func (vi *Index) Skipped() []string {
	if vi == nil {
		return nil
	}
	out := slices.Clip(vi.skipped)
	for _, pc := range vi.pending {
		out = append(out, pc.t.Name+"."+pc.c.Name+": out of time")
	}
	return out
}

// BuildIndex collects the distinct text values of the text columns
// (TEXT affinity or no declared type) of the user's tables (not views, not
// internal tables) through db.Run, one guarded statement per column:
//
//	SELECT DISTINCT +c FROM (SELECT "col" AS c FROM "t" LIMIT 1000000)
//	WHERE typeof(c) = 'text' AND length(c) <= 100 LIMIT 5001
//
// A column with more than opts.MaxDistinct distinct values is skipped, as is
// a column whose statement fails or runs out of time; the whole build stops
// when opts.Budget (default 2 s) is spent. None of these is an error: see
// Skipped. s is the schema (nil: db.Schema is read). The error is non-nil
// only when ctx is cancelled or the schema cannot be read.
func BuildIndex(ctx context.Context, db engine.Database, s *engine.Schema, opts IndexOptions) (*Index, error) {
	opts = opts.withDefaults()
	if s == nil {
		var err error
		if s, err = db.Schema(ctx); err != nil {
			return nil, err
		}
	}
	vi := &Index{byKey: map[string][]int32{}, byFirst: map[rune][]int32{}, schema: map[string]bool{}, dialect: db.Dialect()}
	var cols []pendingColumn
	for _, t := range s.Tables {
		if t == nil || t.Internal {
			continue
		}
		for _, w := range text.IdentWords(t.Name) {
			vi.schema[w] = true
		}
		for _, c := range t.Columns {
			for _, w := range text.IdentWords(c.Name) {
				vi.schema[w] = true
			}
		}
		if strings.EqualFold(t.Kind, "view") {
			continue
		}
		for _, c := range t.Columns {
			if c.Generated == "hidden" || !textColumn(vi.dialect, c) {
				continue
			}
			cols = append(cols, pendingColumn{t, c})
		}
	}
	if err := vi.index(ctx, db, cols, opts); err != nil {
		return nil, err
	}
	return vi, nil
}

// pendingColumn is a text column not indexed yet.
type pendingColumn struct {
	t *engine.Table
	c *engine.TableColumn
}

// Pending is the number of text columns the build's budget did not reach:
// Continue indexes them.
func (vi *Index) Pending() int {
	if vi == nil {
		return 0
	}
	return len(vi.pending)
}

// Continue indexes, within a new budget (opts.Budget), the columns the
// build's budget did not reach (on a slow server, say), and returns the
// index with them; vi itself is left as it is (a question may be reading
// it). A column whose own statement ran out of time is not tried again.
// With nothing pending, it returns vi.
func (vi *Index) Continue(ctx context.Context, db engine.Database, opts IndexOptions) (*Index, error) {
	if vi.Pending() == 0 {
		return vi, nil
	}
	nv := vi.clone()
	cols := nv.pending
	nv.pending = nil
	if err := nv.index(ctx, db, cols, opts.withDefaults()); err != nil {
		return vi, err
	}
	return nv, nil
}

// clone copies vi so that indexing more columns into the copy never
// writes what vi's readers read (the slices are clipped: an append
// reallocates).
func (vi *Index) clone() *Index {
	nv := *vi
	nv.cols = slices.Clip(vi.cols)
	nv.values = slices.Clone(vi.values)
	for i := range nv.values {
		nv.values[i].cols = slices.Clip(nv.values[i].cols)
	}
	nv.byKey = make(map[string][]int32, len(vi.byKey))
	for k, ids := range vi.byKey {
		nv.byKey[k] = slices.Clip(ids)
	}
	nv.byFirst = make(map[rune][]int32, len(vi.byFirst))
	for r, ids := range vi.byFirst {
		nv.byFirst[r] = slices.Clip(ids)
	}
	nv.skipped = slices.Clip(vi.skipped)
	nv.pending = slices.Clip(vi.pending)
	return &nv
}

// index reads the distinct values of cols into vi, one guarded statement
// each, until opts.Budget is spent; the columns it does not reach are left
// pending. The error is non-nil only when ctx ends.
func (vi *Index) index(ctx context.Context, db engine.Database, cols []pendingColumn, opts IndexOptions) error {
	bctx, cancel := context.WithTimeout(ctx, opts.Budget)
	defer cancel()
	byText := make(map[string]int32, len(vi.values))
	for i, v := range vi.values {
		byText[v.text] = int32(i)
	}
	perCol := opts.Budget / 4
	if perCol < 50*time.Millisecond {
		perCol = 50 * time.Millisecond
	}
	for i, pc := range cols {
		t, c := pc.t, pc.c
		name := t.Name + "." + c.Name
		if err := ctx.Err(); err != nil {
			return engine.AsError(err)
		}
		if vi.full {
			vi.skipped = append(vi.skipped, name+": the index is full")
			continue
		}
		left := time.Until(deadlineOf(bctx))
		if bctx.Err() != nil || left <= 0 {
			vi.pending = append(vi.pending, cols[i:]...)
			return nil
		}
		timeout := min(left, perCol)
		q := distinctValuesSQL(vi.dialect, t.Name, c.Name, opts)
		res, err := db.Run(bctx, q, engine.RunOptions{MaxRows: opts.MaxDistinct + 1, Timeout: timeout})
		if err != nil {
			if cerr := ctx.Err(); cerr != nil {
				return engine.AsError(cerr)
			}
			if bctx.Err() != nil {
				// The budget ended during this column's statement: it and
				// the rest wait for Continue.
				vi.pending = append(vi.pending, cols[i:]...)
				return nil
			}
			vi.skipped = append(vi.skipped, name+": "+skipReason(err))
			continue
		}
		if res.Truncated || len(res.Rows) > opts.MaxDistinct {
			vi.skipped = append(vi.skipped, fmt.Sprintf("%s: more than %d distinct values", name, opts.MaxDistinct))
			continue
		}
		ci := int32(len(vi.cols))
		vi.cols = append(vi.cols, newIndexedColumn(t, c, len(res.Rows), opts.MaxDistinct))
		vi.addValues(res.Rows, ci, name, byText, opts.MaxValues)
	}
	return nil
}

// newIndexedColumn describes column c of table t, which holds distinct
// values: its prior (higher for fewer values, a category), whether it
// labels the table's rows (a name or title, or nearly one value a row), and
// the values the schema lists for it.
func newIndexedColumn(t *engine.Table, c *engine.TableColumn, distinct, maxDistinct int) indexedColumn {
	col := indexedColumn{table: t.Name, column: c.Name, distinct: distinct,
		tableWords: text.IdentWords(t.Name), columnWords: text.IdentWords(c.Name)}
	col.prior = 0.4 * (1 - math.Log(float64(max(col.distinct, 1)))/math.Log(float64(maxDistinct+1)))
	for _, w := range col.columnWords {
		col.label = col.label || w == "nam" || w == "titl" || w == "label"
	}
	if !t.RowCountEstimated && t.RowCount > 0 && col.distinct >= 10 && float64(col.distinct) >= 0.9*float64(t.RowCount) {
		col.label = true
	}
	for _, v := range t.DistinctValues.Get(c.Name) {
		if sv, ok := v.(string); ok {
			if col.listed == nil {
				col.listed = map[string]bool{}
			}
			col.listed[sv] = true
		}
	}
	return col
}

// addValues adds the text values of rows (one column each) as held by
// column ci (named name, for Skipped): a value already stored gains the
// column, a new one is stored unless its key is under 2 characters. When
// the index reaches maxValues it is full, and the rest are left out.
func (vi *Index) addValues(rows [][]engine.Value, ci int32, name string, byText map[string]int32, maxValues int) {
	for _, row := range rows {
		if len(row) == 0 {
			continue
		}
		text, ok := row[0].(string)
		if !ok {
			continue
		}
		if id, ok := byText[text]; ok {
			vv := &vi.values[id]
			if last := vv.cols[len(vv.cols)-1]; last != ci {
				vv.cols = append(vv.cols, ci)
			}
			continue
		}
		key := normKey(text)
		if utf8.RuneCountInString(key) < 2 {
			continue
		}
		if len(vi.values) >= maxValues {
			vi.full = true
			vi.skipped = append(vi.skipped, name+": the index is full (some values left out)")
			return
		}
		if key == text {
			key = text // share the memory
		}
		id := int32(len(vi.values))
		vi.values = append(vi.values, storedValue{text: text, key: key, keyLen: int32(utf8.RuneCountInString(key)), cols: []int32{ci}})
		byText[text] = id
		vi.byKey[key] = append(vi.byKey[key], id)
		r, _ := utf8.DecodeRuneInString(key)
		vi.byFirst[r] = append(vi.byFirst[r], id)
	}
}

func deadlineOf(ctx context.Context) time.Time {
	d, _ := ctx.Deadline()
	return d
}

// textColumn reports whether c holds text whose values a question may
// name: in SQLite a column of TEXT affinity or of no declared type; in
// PostgreSQL one of a character type (not a date, a number, JSON or an
// array, which the adapter also gives TEXT affinity).
func textColumn(dialect string, c *engine.TableColumn) bool {
	if dialect == sqltext.PostgreSQL {
		t := strings.ToLower(strings.TrimSpace(c.Type))
		for _, p := range []string{"text", "character", "varchar", "char", "bpchar", "citext", "name"} {
			if strings.HasPrefix(t, p) && !strings.HasSuffix(t, "[]") {
				return true
			}
		}
		return false
	}
	return strings.EqualFold(c.Affinity, "TEXT") || strings.TrimSpace(c.Type) == ""
}

// distinctValuesSQL is the statement that reads a text column's distinct
// values in the database's dialect: in SQLite only values stored as text
// (a column of no type may hold numbers too), in PostgreSQL the column's
// values (it is of a text type).
func distinctValuesSQL(dialect, table, column string, opts IndexOptions) string {
	if dialect == sqltext.PostgreSQL {
		return fmt.Sprintf("SELECT DISTINCT c FROM (SELECT %s AS c FROM %s LIMIT %d) AS s WHERE length(c) <= %d LIMIT %d",
			sqltext.QuoteIdent(column), sqltext.TableIdent(dialect, table), opts.MaxScanRows, opts.MaxValueLen, opts.MaxDistinct+1)
	}
	return fmt.Sprintf("SELECT DISTINCT +c FROM (SELECT %s AS c FROM %s LIMIT %d) WHERE typeof(c) = 'text' AND length(c) <= %d LIMIT %d",
		sqltext.QuoteIdent(column), sqltext.QuoteIdent(table), opts.MaxScanRows, opts.MaxValueLen, opts.MaxDistinct+1)
}

func skipReason(err error) string {
	var e *engine.Error
	if errors.As(err, &e) {
		if e.Code == engine.CodeTimeout {
			return "out of time"
		}
		return e.Message
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return "out of time"
	}
	return err.Error()
}

// normKey normalises a value or a question's words: lowercase, accents
// removed, everything but letters and digits dropped, words joined ("AC/DC"
// → "acdc", "São Paulo" → "saopaulo").
func normKey(s string) string { return text.Fold(s) }

// stopWords never make a match on their own, nor start or end a match
// that tolerates typos.
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the of in on at by for from to with without and or not no nor
		is are was were be been being has have had do does did what which who whom whose where when why how
		many much most least more less than per each every all any some me my our we you i it its this that these those
		show list give find get tell display return there their them they he she his her him us
		top bottom number count average avg sum total highest lowest best worst
		between during over under into as about also only please if then so can could would should will
		time date year month week day name names title price length duration size
		s t
		le la les de des du un une et ou en au aux par pour avec sans dans sur sous qui que quoi quel quelle quels quelles
		combien est sont ont ete etait ce ces cette cet son sa ses leur leurs plus moins tous toutes tout toute chaque
		liste montre donne trouve affiche nombre moyenne somme meilleur meilleure pire entre depuis pendant mois annee jour nom prix
		qu il elle ils elles nous vous je mon ma mes notre nos votre vos
		的 了 是 和 与 及 或 在 有 个 吗 呢 哪 些 什 么 多 少 谁 几 每 所 按 各 为`) {
		m[w] = true
	}
	return m
}()

// questionWord is one word of a question: its normalised form and where it is.
type questionWord struct {
	key        string
	start, end int // bytes in the question
	stop       bool
	schema     bool // names a table or column (stemmed)
	digits     bool
	cjk        bool // one Chinese, Japanese or Korean character
}

func (vi *Index) questionWords(q string) []questionWord {
	var out []questionWord
	start := -1
	flush := func(end int) {
		if start < 0 {
			return
		}
		k := normKey(q[start:end])
		if k != "" {
			w := questionWord{key: k, start: start, end: end, stop: stopWords[k]}
			for _, r := range k {
				if unicode.IsDigit(r) {
					w.digits = true
				}
			}
			w.schema = vi.schema[text.Stem(k)]
			out = append(out, w)
		}
		start = -1
	}
	for i, r := range q {
		if text.IsCJK(r) {
			// Chinese is written without spaces: each character is a word,
			// and the n-grams below put the stored values back together.
			flush(i)
			start = i
			before := len(out)
			flush(i + utf8.RuneLen(r))
			if len(out) > before {
				out[len(out)-1].cjk = true
			}
			continue
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) {
			if start < 0 {
				start = i
			}
			continue
		}
		flush(i)
	}
	flush(len(q))
	return out
}

// maxGram is the longest n-gram of words compared with stored values; a run
// of Chinese characters may be longer (maxCJKGram), a character a word.
const (
	maxGram    = 4
	maxCJKGram = 12
)

// valueMatch is one value matched by an n-gram of the question.
type valueMatch struct {
	value    int32
	start, n int // the n-gram: first word, number of words
	dist     int // 0: exact
	col      int32
	score    float64
}

// exactPenalty lowers a typo match of words that also match a value
// exactly: 'Led Zeppelin I' (the album, with the album named) must not
// displace 'Led Zeppelin' (the artist) for "albums by Led Zeppelin".
const exactPenalty = 0.25

// minTypoScore is the score a match with a typo needs: the support of a
// small column or of the question naming the column's table.
const minTypoScore = 0.7

// Hints returns the stored values the question mentions, best first, at
// most max (5 when max ≤ 0).
//
// Word n-grams of the question (1 to 4 words) are compared with whole
// normalised values: case, accents, punctuation and spaces are ignored, so
// "ac dc" and "acdc" find 'AC/DC'. An n-gram may also match with a typo: a
// Damerau–Levenshtein distance of at most 1 for 4–7 letters, 2 for longer,
// with the same first letter and no digits. Never matched: an n-gram of stop
// words only ("the", "in", "of", "by", "what", "how", "many"…), a single
// word that is a stop word or names a table or column ("invoices", "total"),
// numbers under three digits, single characters; a typo match never starts
// or ends with a stop word.
//
// Matches are scored: exact 1.0, one typo 0.6, two 0.45, plus 0.1 per extra
// word, plus 0.5 when the question names the column's table, 0.25 when it
// names the column, plus up to 0.4 for a column with few distinct values (a
// category). So exact matches come first unless context says otherwise
// ("customers in brasil": Customer.Country 'Brazil' before a track named
// 'Brasil'), and a typo match loses 0.25 when the same words also match a
// value exactly. A typo match needs a score of 0.7 (a small column or a
// named table). Each stretch of the question's words yields at most one hint, the
// best-scored; a value is hinted once.
//
// Each hint names one column: a column of names or unique labels first
// (Artist.Name before Track.Composer for 'AC/DC'), then one whose table or
// name the question names, then the one with the fewest values; AlsoIn lists
// the others. A value the question already spells exactly, with the same
// case, is left out when the schema lists it among its column's distinct
// values (the model sees it there); otherwise it is kept, since the column
// is the useful part.
func (vi *Index) Hints(question string, max int) []Hint {
	if vi == nil || len(vi.values) == 0 {
		return nil
	}
	if max <= 0 {
		max = 5
	}
	words := vi.questionWords(question)
	if len(words) == 0 {
		return nil
	}
	m := &matcher{vi: vi, words: words, qstems: map[string]bool{}}
	for _, w := range text.IdentWords(question) {
		m.qstems[w] = true
	}
	for n := maxCJKGram; n >= 1; n-- {
		for s := 0; s+n <= len(words); s++ {
			m.matchGram(s, n)
		}
	}
	sort.SliceStable(m.matches, func(a, b int) bool {
		x, y := m.matches[a], m.matches[b]
		if x.score != y.score {
			return x.score > y.score
		}
		if x.dist != y.dist {
			return x.dist < y.dist
		}
		if x.start != y.start {
			return x.start < y.start
		}
		return x.value < y.value
	})
	return vi.pickHints(question, words, m.matches, max)
}

// matcher collects the values that a question's n-grams match (Hints).
type matcher struct {
	vi      *Index
	words   []questionWord
	qstems  map[string]bool // the question's stemmed words
	matches []valueMatch
	kb      strings.Builder // the n-gram's key
	qr, vr  []rune          // the keys compared for typos
	dl      text.Distancer
}

// add scores the match of value id by the n words from words[s], dist
// typos apart, and keeps it unless it is a typo match that scores too low.
func (m *matcher) add(id int32, s, n, dist int, penalty float64) {
	col := m.vi.bestColumn(id, m.qstems)
	c := &m.vi.cols[col]
	score := [...]float64{1, 0.6, 0.45}[dist] + 0.1*float64(n-1) + m.vi.context(c, m.qstems) + c.prior - penalty
	if dist > 0 && score < minTypoScore {
		return
	}
	m.matches = append(m.matches, valueMatch{value: id, start: s, n: n, dist: dist, col: col, score: score})
}

// matchGram matches the n words from words[s] with the stored values:
// exactly, and then with typos unless the n-gram is Chinese, holds digits,
// or starts or ends with a stop word. An n-gram that can never match (stop
// words only, too short, a lone schema word or small number) is passed over.
func (m *matcher) matchGram(s, n int) {
	words := m.words
	m.kb.Reset()
	allStop, digits, cjk := true, false, true
	for i := s; i < s+n; i++ {
		m.kb.WriteString(words[i].key)
		allStop = allStop && words[i].stop
		digits = digits || words[i].digits
		cjk = cjk && words[i].cjk
	}
	if n > maxGram && !cjk {
		return
	}
	key := m.kb.String()
	runes := utf8.RuneCountInString(key)
	if allStop || runes < 2 || n == 1 && (words[s].schema || runes < 3 && text.AllDigits(key)) {
		return
	}
	exact := m.vi.byKey[key]
	for _, id := range exact {
		m.add(id, s, n, 0, 0)
	}
	if runes < 4 || digits || cjk || words[s].stop || words[s+n-1].stop {
		return // no typos in Chinese: one character apart is another word
	}
	best, found := m.nearest(key, runes)
	penalty := 0.0
	if len(exact) > 0 {
		penalty = exactPenalty // the words are likely typed right
	}
	for _, id := range found {
		m.add(id, s, n, best, penalty)
	}
}

// nearest returns the values other than key itself, with the same first
// letter, that are fewest typos from key (runes long): at most 1 typo, 2
// from 8 runes; and how many typos that is.
func (m *matcher) nearest(key string, runes int) (int, []int32) {
	maxDist := 1
	if runes >= 8 {
		maxDist = 2
	}
	m.qr = append(m.qr[:0], []rune(key)...)
	best := maxDist
	var found []int32
	for _, id := range m.vi.byFirst[m.qr[0]] {
		v := &m.vi.values[id]
		if d := int(v.keyLen) - runes; d > best || -d > best || v.key == key {
			continue
		}
		m.vr = m.vr[:0]
		for _, r := range v.key {
			m.vr = append(m.vr, r)
		}
		d := m.dl.Distance(m.qr, m.vr, best+1)
		switch {
		case d > best:
		case d < best:
			best, found = d, append(found[:0], id)
		default:
			found = append(found, id)
		}
	}
	return best, found
}

// pickHints turns the best matches, in order, into at most max hints: one
// per stretch of the question's words and per value, leaving out a value
// the question spells exactly that the schema lists.
func (vi *Index) pickHints(question string, words []questionWord, matches []valueMatch, max int) []Hint {
	used := make([]bool, len(words))
	seen := map[int32]bool{}
	var out []Hint
	for _, m := range matches {
		if len(out) == max {
			break
		}
		free := true
		for i := m.start; i < m.start+m.n; i++ {
			free = free && !used[i]
		}
		if !free || seen[m.value] {
			continue
		}
		for i := m.start; i < m.start+m.n; i++ {
			used[i] = true
		}
		seen[m.value] = true
		v := &vi.values[m.value]
		c := &vi.cols[m.col]
		if c.listed[v.text] && spells(question, v.text) {
			continue // the model sees the value, and the schema shows its column
		}
		h := Hint{Table: c.table, Column: c.column, Dialect: vi.dialect, Value: v.text, Exact: m.dist == 0,
			Matched: question[words[m.start].start:words[m.start+m.n-1].end]}
		for _, ci := range v.cols {
			if ci != m.col {
				h.AlsoIn = append(h.AlsoIn, vi.cols[ci].table+"."+vi.cols[ci].column)
			}
		}
		out = append(out, h)
	}
	return out
}

// bestColumn picks the column to name for a value held by several: a column
// of names or unique labels, then one the question points at, then the one
// with the fewest values, then the first in schema order.
func (vi *Index) bestColumn(id int32, qstems map[string]bool) int32 {
	cols := vi.values[id].cols
	best, bestScore := cols[0], -1.0
	for _, ci := range cols {
		c := &vi.cols[ci]
		s := vi.context(c, qstems) + c.prior
		if c.label {
			s += 0.6
		}
		if s > bestScore {
			best, bestScore = ci, s
		}
	}
	return best
}

// context scores how much the question points at a column: 0.5 when it
// names the column's table, plus 0.25 when it names the column.
func (vi *Index) context(c *indexedColumn, qstems map[string]bool) float64 {
	score := 0.0
	for _, w := range c.tableWords {
		if qstems[w] {
			score = 0.5
			break
		}
	}
	for _, w := range c.columnWords {
		if qstems[w] && w != "id" && w != "nam" {
			score += 0.25
			break
		}
	}
	return score
}

// spells reports whether question contains value exactly, as whole words.
func spells(question, value string) bool {
	for off := 0; off <= len(question); {
		i := strings.Index(question[off:], value)
		if i < 0 {
			return false
		}
		i += off
		end := i + len(value)
		before, _ := utf8.DecodeLastRuneInString(question[:i])
		after, _ := utf8.DecodeRuneInString(question[end:])
		if (i == 0 || !isWordRune(before)) && (end == len(question) || !isWordRune(after)) {
			return true
		}
		off = i + 1
	}
	return false
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// Stored reports whether a text column named column (a bare name, or
// table.column, case-insensitive) is in the index, and whether value is
// stored in it: exactly, or, with like set, as a case-insensitive part of a
// stored value (for LIKE '%…%' patterns, given without their wildcards).
// The ask loop uses it to explain a query that returned nothing.
func (vi *Index) Stored(column, value string, like bool) (indexed, present bool) {
	if vi == nil {
		return false, false
	}
	table, column := splitColumn(column)
	match := map[int32]bool{}
	for i, c := range vi.cols {
		if strings.EqualFold(c.column, column) && (table == "" || strings.EqualFold(c.table, table)) {
			match[int32(i)] = true
		}
	}
	if len(match) == 0 && table != "" {
		// table is probably an alias: any column of that name will do.
		for i, c := range vi.cols {
			if strings.EqualFold(c.column, column) {
				match[int32(i)] = true
			}
		}
	}
	if len(match) == 0 {
		return false, false
	}
	lower := strings.ToLower(value)
	for _, v := range vi.values {
		if !(v.text == value || (like && strings.Contains(strings.ToLower(v.text), lower))) {
			continue
		}
		for _, c := range v.cols {
			if match[c] {
				return true, true
			}
		}
	}
	return true, false
}

// splitColumn reads "Table.Column" (either quoted, as SQL writes them)
// as its table ("" when not named) and column.
func splitColumn(name string) (table, column string) {
	column = name
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		table, column = name[:i], name[i+1:]
	}
	return strings.Trim(table, `"[]`+"`"), strings.Trim(column, `"[]`+"`")
}

// Similar returns up to n stored values of the column (as for Stored) that
// look like value: the same text in another case or spelling, or a few
// typos away; closest first.
func (vi *Index) Similar(column, value string, n int) []string {
	if vi == nil || n <= 0 {
		return nil
	}
	table, column := splitColumn(column)
	match := map[int32]bool{}
	for i, c := range vi.cols {
		if strings.EqualFold(c.column, column) && (table == "" || strings.EqualFold(c.table, table) || !vi.hasTable(table)) {
			match[int32(i)] = true
		}
	}
	key := []rune(normKey(value))
	if len(key) == 0 {
		return nil
	}
	limit := max(1, len(key)/3)
	type cand struct {
		text string
		d    int
	}
	var cs []cand
	var dist text.Distancer
	for _, v := range vi.values {
		in := false
		for _, c := range v.cols {
			if match[c] {
				in = true
				break
			}
		}
		if !in {
			continue
		}
		vk := []rune(v.key)
		if d := dist.Distance(key, vk, limit+1); d <= limit {
			cs = append(cs, cand{v.text, d})
		} else if len(key) >= 4 && strings.Contains(v.key, string(key)) {
			cs = append(cs, cand{v.text, limit + 1})
		}
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].d < cs[j].d })
	var out []string
	for i := 0; i < len(cs) && i < n; i++ {
		out = append(out, cs[i].text)
	}
	return out
}

func (vi *Index) hasTable(name string) bool {
	for _, c := range vi.cols {
		if strings.EqualFold(c.table, name) {
			return true
		}
	}
	return false
}
