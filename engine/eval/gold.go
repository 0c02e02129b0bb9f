package eval

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"querent/engine/sqltext"

	"github.com/BurntSushi/toml"

	"querent/engine/text"
)

// Difficulties are the levels a gold item can have, easiest first.
var Difficulties = []string{"easy", "medium", "hard"}

// GoldSet is a set of questions with their gold answers (design.md, "Gold
// sets, predictions and eval reports").
type GoldSet struct {
	// Name is the built-in name or the file's name without .toml.
	Name string
	// Source is the file the set was read from, or "built-in".
	Source string
	// Database names the database the set was written for (informative).
	Database string
	Items    []*Item
	// Builtin is true for a set shipped inside the binary.
	Builtin bool
	// Dialect is the SQL dialect of a built-in set's queries ("sqlite", or
	// that of its translation: "postgresql"); "" for a file, whose author
	// knows what it was written for.
	Dialect string
}

// Item is one question of a gold set.
type Item struct {
	ID         string
	Question   string
	Difficulty string
	// SQL is the gold query; empty for an unanswerable item.
	SQL string
	// Alternatives are other gold queries that are equally right.
	Alternatives []string
	// OrderMatters is as written; nil means the default: true when the
	// gold query has a top-level ORDER BY.
	OrderMatters *bool
	Ranking      bool
	ExtraColumns bool
	// Follows is the id of the item this one follows up (same session).
	Follows string
	// Unanswerable is the reason the schema cannot answer the question.
	Unanswerable string
}

// Answerable reports whether the item has gold SQL.
func (it *Item) Answerable() bool { return it.Unanswerable == "" }

// GoldQueries returns the gold query and its alternatives.
func (it *Item) GoldQueries() []string {
	if !it.Answerable() {
		return nil
	}
	return append([]string{it.SQL}, it.Alternatives...)
}

// Rule returns the match rule for one of the item's gold queries.
func (it *Item) Rule(goldSQL string, lenient bool) Rule {
	order := HasTopLevelOrderBy(goldSQL)
	if it.OrderMatters != nil {
		order = *it.OrderMatters
	}
	return Rule{OrderMatters: order, Ranking: it.Ranking, ExtraColumns: it.ExtraColumns, Lenient: lenient}
}

// Item returns the item with the given id, or nil.
func (g *GoldSet) Item(id string) *Item {
	for _, it := range g.Items {
		if it.ID == id {
			return it
		}
	}
	return nil
}

// Root returns the id of the first item of the follow-up chain it belongs
// to ("" when it neither follows nor is followed): the items of one chain
// share a session.
func (g *GoldSet) Root(it *Item) string {
	if it.Follows == "" {
		for _, o := range g.Items {
			if o.Follows == it.ID {
				return it.ID
			}
		}
		return ""
	}
	seen := map[string]bool{}
	for it.Follows != "" && !seen[it.ID] {
		seen[it.ID] = true
		next := g.Item(it.Follows)
		if next == nil {
			break
		}
		it = next
	}
	return it.ID
}

//go:embed gold/*.toml
var builtinFS embed.FS

// BaseDialect is the dialect the built-in gold sets are written in (for the
// bundled SQLite demo).
const BaseDialect = "sqlite"

// translations are the dialects a built-in set may be translated into:
// gold/NAME_DIALECT.toml holds the items of gold/NAME.toml, the same ids,
// questions and flags in the same order, with their queries in DIALECT.
var translations = []string{"postgresql"}

// isTranslation reports whether a built-in file name (without .toml) is a
// translation of another built-in set.
func isTranslation(name string) bool {
	for _, d := range translations {
		if base, ok := strings.CutSuffix(name, "_"+d); ok && base != "" {
			return true
		}
	}
	return false
}

// BuiltinNames lists the gold sets shipped inside the binary (their
// translations into other dialects are not separate sets).
func BuiltinNames() []string {
	entries, _ := fs.ReadDir(builtinFS, "gold")
	var names []string
	for _, e := range entries {
		if name := strings.TrimSuffix(e.Name(), ".toml"); !isTranslation(name) {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

// IsBuiltin reports whether name is a built-in gold set's name.
func IsBuiltin(name string) bool { return slices.Contains(BuiltinNames(), name) }

// Builtin returns a built-in gold set, with its queries in BaseDialect.
func Builtin(name string) (*GoldSet, error) {
	if !IsBuiltin(name) {
		return nil, fmt.Errorf("there is no built-in gold set %q (built in: %s)", name, strings.Join(BuiltinNames(), ", "))
	}
	return readBuiltin(name, name, "built-in", BaseDialect)
}

func readBuiltin(name, file, source, dialect string) (*GoldSet, error) {
	b, err := builtinFS.ReadFile(path.Join("gold", file+".toml"))
	if err != nil {
		return nil, fmt.Errorf("there is no built-in gold set %q (built in: %s)", name, strings.Join(BuiltinNames(), ", "))
	}
	g, err := Parse(file+".toml", b)
	if err != nil {
		return nil, err
	}
	g.Name, g.Source, g.Builtin, g.Dialect = name, source, true, dialect
	return g, nil
}

// BuiltinFor returns a built-in gold set with its queries in dialect (a
// database's Dialect()): its translation when there is one, else the set as
// written (BaseDialect). The translation keeps the set's name, so that
// records and reports name the set the same on every database; its Source
// says "built-in (DIALECT)".
func BuiltinFor(name, dialect string) (*GoldSet, error) {
	base, err := Builtin(name)
	if err != nil || dialect == BaseDialect || !slices.Contains(translations, dialect) {
		return base, err
	}
	file := name + "_" + dialect
	if _, err := fs.Stat(builtinFS, path.Join("gold", file+".toml")); err != nil {
		return base, nil
	}
	g, err := readBuiltin(name, file, "built-in ("+dialect+")", dialect)
	if err != nil {
		return nil, err
	}
	// Predictions and records are matched to items by id (or, as plain
	// text, by order): a translation must have the very same items. Only
	// the queries differ, and a question may name what the translation's
	// own data calls the same thing (another year).
	if len(g.Items) != len(base.Items) {
		return nil, fmt.Errorf("the built-in gold set %s has %d items in %s but %d in %s", name, len(g.Items), dialect, len(base.Items), BaseDialect)
	}
	for i, it := range g.Items {
		b := base.Items[i]
		if it.ID != b.ID || it.Difficulty != b.Difficulty || it.Follows != b.Follows ||
			it.Unanswerable != b.Unanswerable || it.Ranking != b.Ranking || it.ExtraColumns != b.ExtraColumns ||
			(it.OrderMatters == nil) != (b.OrderMatters == nil) || (it.OrderMatters != nil && *it.OrderMatters != *b.OrderMatters) {
			return nil, fmt.Errorf("the built-in gold set %s: item %d (%s) of its %s translation differs from the set besides its question and queries", name, i+1, it.ID, dialect)
		}
	}
	return g, nil
}

// ForDialect returns g with its queries in dialect: for a built-in set, its
// translation (BuiltinFor); a set read from a file is returned as it is.
func (g *GoldSet) ForDialect(dialect string) (*GoldSet, error) {
	if !g.Builtin || g.Dialect == dialect {
		return g, nil
	}
	return BuiltinFor(g.Name, dialect)
}

// Load reads a gold set: a built-in name (such as "chinook") or a file.
// A file that exists wins over a built-in name. A built-in set comes with
// its queries in BaseDialect; LoadFor picks those of a database's dialect.
func Load(nameOrPath string) (*GoldSet, error) {
	if _, err := os.Stat(nameOrPath); err != nil && IsBuiltin(nameOrPath) {
		return Builtin(nameOrPath)
	}
	b, err := os.ReadFile(nameOrPath)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("the gold set %s does not exist (built-in sets: %s)", nameOrPath, strings.Join(BuiltinNames(), ", "))
		}
		return nil, fmt.Errorf("cannot read the gold set %s: %v", nameOrPath, err)
	}
	g, err := Parse(nameOrPath, b)
	if err != nil {
		return nil, err
	}
	g.Source = nameOrPath
	return g, nil
}

// LoadFor is Load for a database of the given dialect: a built-in name gets
// the set's translation into that dialect when there is one; a file is used
// as given.
func LoadFor(nameOrPath, dialect string) (*GoldSet, error) {
	g, err := Load(nameOrPath)
	if err != nil {
		return nil, err
	}
	return g.ForDialect(dialect)
}

// GoldError lists what is wrong in a gold set file, one problem a line,
// each naming the file, the item (index and id) and the field.
type GoldError struct {
	File     string
	Problems []string
}

func (e *GoldError) Error() string {
	const shown = 12
	ps := e.Problems
	more := ""
	if len(ps) > shown {
		more = fmt.Sprintf("\n(and %d more problems)", len(ps)-shown)
		ps = ps[:shown]
	}
	return strings.Join(ps, "\n") + more
}

var itemFields = []string{"id", "question", "difficulty", "sql", "alternatives", "order_matters", "ranking", "extra_columns", "follows", "unanswerable"}
var topFields = []string{"database", "item"}

// itemHeaderRE finds the [[item]] headers, to give each item its line.
var itemHeaderRE = regexp.MustCompile(`(?m)^[ \t]*\[\[[ \t]*item[ \t]*\]\]`)

// Parse reads a gold set from the TOML text of file name (used in
// messages). Every problem is reported, not only the first.
func Parse(name string, data []byte) (*GoldSet, error) {
	file := filepath.Base(name)
	var raw map[string]any
	if _, err := toml.Decode(string(data), &raw); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, &GoldError{File: file, Problems: []string{fmt.Sprintf("%s:%d:%d: not valid TOML: %s", file, pe.Position.Line, pe.Position.Col, pe.Message)}}
		}
		return nil, &GoldError{File: file, Problems: []string{fmt.Sprintf("%s: not valid TOML: %v", file, err)}}
	}
	g := &GoldSet{Name: strings.TrimSuffix(file, filepath.Ext(file)), Source: name}
	p := &goldParser{file: file}
	for _, k := range sortedKeys(raw) {
		if !slices.Contains(topFields, k) {
			p.add("%s: unknown key %q at the top%s; a gold set has database and [[item]] tables", file, k, suggest(k, topFields))
		}
	}
	if v, ok := raw["database"]; ok {
		if s, ok := v.(string); ok {
			g.Database = s
		} else {
			p.add("%s: database must be a string", file)
		}
	}
	lines := itemHeaderRE.FindAllIndex(data, -1)
	ids := map[string]int{}
	for idx, m := range p.itemTables(raw["item"]) {
		where := fmt.Sprintf("%s: item %d", file, idx+1)
		if idx < len(lines) {
			line := 1 + strings.Count(string(data[:lines[idx][0]]), "\n")
			where = fmt.Sprintf("%s:%d: item %d", file, line, idx+1)
		}
		if id, ok := m["id"].(string); ok && id != "" {
			where += fmt.Sprintf(" (id %q)", id)
		}
		it := itemReader{p: p, m: m, where: where}.item()
		p.checkLinks(it, where, idx, ids)
		g.Items = append(g.Items, it)
	}
	if len(p.problems) > 0 {
		return nil, &GoldError{File: file, Problems: p.problems}
	}
	return g, nil
}

// goldParser collects the problems of one gold set file (Parse).
type goldParser struct {
	file     string
	problems []string
}

// add notes one problem.
func (p *goldParser) add(format string, args ...any) {
	p.problems = append(p.problems, fmt.Sprintf(format, args...))
}

// itemTables reads the file's item key as its [[item]] tables.
func (p *goldParser) itemTables(item any) []map[string]any {
	var items []map[string]any
	switch v := item.(type) {
	case nil:
		p.add("%s: no [[item]] tables: a gold set needs at least one question", p.file)
	case []map[string]any:
		items = v
	case []any:
		for _, x := range v {
			m, ok := x.(map[string]any)
			if !ok {
				p.add("%s: item must be an array of tables ([[item]])", p.file)
				break
			}
			items = append(items, m)
		}
	default:
		p.add("%s: item must be an array of tables ([[item]])", p.file)
	}
	return items
}

// checkLinks checks the item's id against the earlier items' (ids: id →
// index) and what it follows, and notes its id.
func (p *goldParser) checkLinks(it *Item, where string, idx int, ids map[string]int) {
	if it.ID != "" {
		if prev, dup := ids[it.ID]; dup {
			p.add("%s: id %q is already used by item %d", where, it.ID, prev+1)
		} else {
			ids[it.ID] = idx
		}
	}
	if it.Follows != "" {
		_, ok := ids[it.Follows]
		switch {
		case it.Follows == it.ID:
			p.add("%s: follows names the item itself", where)
		case !ok:
			p.add("%s: follows %q, which is not an earlier item's id (a follow-up comes after the question it follows)", where, it.Follows)
		}
	}
}

// itemReader reads one [[item]] table m; where locates it in messages.
type itemReader struct {
	p     *goldParser
	m     map[string]any
	where string
}

// item reads the item's fields and checks that they go together.
func (r itemReader) item() *Item {
	it := &Item{}
	for _, k := range sortedKeys(r.m) {
		if !slices.Contains(itemFields, k) {
			r.p.add("%s: unknown field %q%s", r.where, k, suggest(k, itemFields))
		}
	}
	it.ID = r.str("id", true)
	it.Question = r.str("question", true)
	it.Difficulty = r.str("difficulty", true)
	if it.Difficulty != "" && !slices.Contains(Difficulties, it.Difficulty) {
		r.p.add("%s: difficulty %q is not one of easy, medium, hard", r.where, it.Difficulty)
	}
	it.SQL = r.str("sql", false)
	it.Unanswerable = r.str("unanswerable", false)
	it.Follows = r.str("follows", false)
	it.Alternatives = r.alternatives()
	it.OrderMatters = r.boolean("order_matters")
	if b := r.boolean("ranking"); b != nil {
		it.Ranking = *b
	}
	if b := r.boolean("extra_columns"); b != nil {
		it.ExtraColumns = *b
	}
	switch {
	case it.SQL == "" && it.Unanswerable == "":
		r.p.add("%s: sql is missing (or, for a question the schema cannot answer, unanswerable = \"the reason\")", r.where)
	case it.SQL != "" && it.Unanswerable != "":
		r.p.add("%s: sql and unanswerable are both set: an item has one or the other", r.where)
	case it.Unanswerable != "" && (len(it.Alternatives) > 0 || it.OrderMatters != nil || it.Ranking || it.ExtraColumns):
		r.p.add("%s: an unanswerable item takes no alternatives, order_matters, ranking or extra_columns", r.where)
	}
	return it
}

// str reads a string field, trimmed; "" when it is missing or not a string.
func (r itemReader) str(field string, required bool) string {
	v, ok := r.m[field]
	if !ok {
		if required {
			r.p.add("%s: %s is missing", r.where, field)
		}
		return ""
	}
	s, ok := v.(string)
	if !ok {
		r.p.add("%s: %s must be a string, not %s", r.where, field, tomlType(v))
		return ""
	}
	if required && strings.TrimSpace(s) == "" {
		r.p.add("%s: %s is empty", r.where, field)
	}
	return strings.TrimSpace(s)
}

// boolean reads a boolean field; nil when it is missing or not a boolean.
func (r itemReader) boolean(field string) *bool {
	v, ok := r.m[field]
	if !ok {
		return nil
	}
	b, ok := v.(bool)
	if !ok {
		r.p.add("%s: %s must be true or false, not %s", r.where, field, tomlType(v))
		return nil
	}
	return &b
}

// alternatives reads the alternative gold queries, each trimmed.
func (r itemReader) alternatives() []string {
	v, ok := r.m["alternatives"]
	if !ok {
		return nil
	}
	arr, ok := v.([]any)
	if !ok {
		r.p.add("%s: alternatives must be an array of strings, not %s", r.where, tomlType(v))
	}
	var out []string
	for i, x := range arr {
		s, ok := x.(string)
		if !ok || strings.TrimSpace(s) == "" {
			r.p.add("%s: alternatives[%d] must be a non-empty string", r.where, i)
			continue
		}
		out = append(out, strings.TrimSpace(s))
	}
	return out
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func suggest(k string, known []string) string {
	best, bestD := "", 3
	for _, c := range known {
		if d := text.Distance(strings.ToLower(k), c, bestD); d < bestD {
			best, bestD = c, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %s?)", best)
}

func tomlType(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case int64:
		return "an integer"
	case float64:
		return "a float"
	case bool:
		return "a boolean"
	case []any, []map[string]any:
		return "an array"
	case map[string]any:
		return "a table"
	}
	return fmt.Sprintf("%T", v)
}

// HasTopLevelOrderBy reports whether sql orders its own result (the
// default of an item's order_matters); see sqltext.HasTopLevelOrderBy.
func HasTopLevelOrderBy(sql string) bool { return sqltext.HasTopLevelOrderBy(sql) }
