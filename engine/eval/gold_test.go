package eval

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestParseGold(t *testing.T) {
	g, err := Parse("my.toml", []byte(`
database = "Shop"
[[item]]
id = "a"
question = "How many orders?"
difficulty = "easy"
sql = "SELECT count(*) FROM orders"

[[item]]
id = "b"
question = "Top customers"
difficulty = "hard"
sql = "SELECT customer FROM orders GROUP BY customer ORDER BY sum(amount) DESC LIMIT 3"
alternatives = ["SELECT customer FROM (SELECT customer FROM orders GROUP BY 1 ORDER BY sum(amount) DESC LIMIT 3)"]
ranking = true
extra_columns = true

[[item]]
id = "c"
question = "And in 2023?"
difficulty = "medium"
follows = "b"
sql = "SELECT 1 ORDER BY 1"
order_matters = false

[[item]]
id = "d"
question = "What are the salaries?"
difficulty = "easy"
unanswerable = "no salaries"
`))
	if err != nil {
		t.Fatal(err)
	}
	if g.Name != "my" || g.Database != "Shop" || len(g.Items) != 4 {
		t.Fatalf("got %+v", g)
	}
	a, b, c, d := g.Items[0], g.Items[1], g.Items[2], g.Items[3]
	if a.Rule(a.SQL, false).OrderMatters || !b.Rule(b.SQL, false).OrderMatters || b.Rule(b.Alternatives[0], false).OrderMatters {
		t.Errorf("order_matters defaults: a %v, b %v, b's alternative %v", a.Rule(a.SQL, false), b.Rule(b.SQL, false), b.Rule(b.Alternatives[0], false))
	}
	if r := c.Rule(c.SQL, true); r.OrderMatters || !r.Lenient {
		t.Errorf("explicit order_matters = false: %+v", r)
	}
	if r := b.Rule(b.SQL, false); !r.Ranking || !r.ExtraColumns {
		t.Errorf("b: %+v", r)
	}
	if d.Answerable() || d.GoldQueries() != nil || !a.Answerable() {
		t.Errorf("answerable: %v %v", d.Answerable(), a.Answerable())
	}
	if g.Root(c) != "b" || g.Root(b) != "b" || g.Root(a) != "" {
		t.Errorf("roots: %q %q %q", g.Root(c), g.Root(b), g.Root(a))
	}
	// Round trip through FormatTOML.
	g2, err := Parse("my.toml", FormatTOML(g, []string{"a header", "on two lines"}))
	if err != nil {
		t.Fatal(err)
	}
	for i := range g.Items {
		x, y := g.Items[i], g2.Items[i]
		if x.ID != y.ID || x.SQL != y.SQL || x.Follows != y.Follows || x.Ranking != y.Ranking || x.ExtraColumns != y.ExtraColumns ||
			(x.OrderMatters == nil) != (y.OrderMatters == nil) || len(x.Alternatives) != len(y.Alternatives) || x.Unanswerable != y.Unanswerable {
			t.Errorf("round trip: %+v became %+v", x, y)
		}
	}
}

func TestParseGoldErrors(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"not TOML", "database = \"x\"\n[[item]\nid = 1\n", []string{"bad.toml:3:", "not valid TOML"}},
		{"no items", `database = "x"`, []string{"bad.toml: no [[item]] tables"}},
		{"unknown top key", "databse = \"x\"\n[[item]]\nid=\"a\"\nquestion=\"q\"\ndifficulty=\"easy\"\nsql=\"SELECT 1\"\n",
			[]string{`unknown key "databse" at the top (did you mean database?); a gold set has database and [[item]] tables`}},
		{"fields", `
[[item]]
id = "a"
question = "q"
difficulty = "Easy"
sqll = "SELECT 1"
ranking = "yes"

[[item]]
id = "a"
question = ""
difficulty = "hard"
sql = "SELECT 1"
unanswerable = "no"

[[item]]
question = "q"
difficulty = "easy"
sql = "SELECT 1"
follows = "zz"
`, []string{
			`bad.toml:2: item 1 (id "a"): difficulty "Easy" is not one of easy, medium, hard`,
			`bad.toml:2: item 1 (id "a"): unknown field "sqll" (did you mean sql?)`,
			`bad.toml:2: item 1 (id "a"): ranking must be true or false, not a string`,
			`bad.toml:2: item 1 (id "a"): sql is missing (or, for a question the schema cannot answer, unanswerable = "the reason")`,
			`bad.toml:9: item 2 (id "a"): question is empty`,
			`bad.toml:9: item 2 (id "a"): sql and unanswerable are both set`,
			`bad.toml:9: item 2 (id "a"): id "a" is already used by item 1`,
			`bad.toml:16: item 3: id is missing`,
			`bad.toml:16: item 3: follows "zz", which is not an earlier item's id`,
		}},
		{"follow-up before its question", `
[[item]]
id = "b"
question = "and then?"
difficulty = "easy"
sql = "SELECT 1"
follows = "a"

[[item]]
id = "a"
question = "q"
difficulty = "easy"
sql = "SELECT 1"
`, []string{`item 1 (id "b"): follows "a", which is not an earlier item's id (a follow-up comes after the question it follows)`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("dir/bad.toml", []byte(tc.text))
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("the error lacks %q:\n%v", w, err)
				}
			}
		})
	}
}

func TestBuiltinAndLoad(t *testing.T) {
	if names := BuiltinNames(); len(names) == 0 || names[0] != "chinook" {
		t.Fatalf("built-in: %v", names)
	}
	g, err := Load("chinook")
	if err != nil || !g.Builtin || g.Source != "built-in" || g.Name != "chinook" {
		t.Fatalf("Load(chinook) = %+v, %v", g, err)
	}
	if _, err := Load("no-such-gold.toml"); err == nil || !strings.Contains(err.Error(), "does not exist (built-in sets: chinook)") {
		t.Errorf("missing file: %v", err)
	}
	if _, err := Builtin("nope"); err == nil {
		t.Error("Builtin(nope) worked")
	}
}

func TestParsePredictions(t *testing.T) {
	g, err := Parse("g.toml", []byte(`
[[item]]
id = "a"
question = "q"
difficulty = "easy"
sql = "SELECT 1"
[[item]]
id = "b"
question = "q2"
difficulty = "easy"
sql = "SELECT 2"
[[item]]
id = "c"
question = "q3"
difficulty = "easy"
unanswerable = "no"
`))
	if err != nil {
		t.Fatal(err)
	}
	p, err := ParsePredictions("p.txt", []byte("SELECT 1\n\n-- unanswerable: no such data\n"), g)
	if err != nil || p["a"].SQL != "SELECT 1" || p["b"].SQL != "" || p["c"].Unanswerable != "no such data" {
		t.Errorf("plain text: %+v %v", p, err)
	}
	p, err = ParsePredictions("p.jsonl", []byte(`{"id": "b", "sql": "SELECT 2"}`+"\n"+`{"id": "c", "sql": "", "clarification": "which year?"}`+"\n"), g)
	if err != nil || p["b"].SQL != "SELECT 2" || p["c"].Clarification != "which year?" || len(p) != 2 {
		t.Errorf("jsonl: %+v %v", p, err)
	}
	for text, want := range map[string]string{
		"SELECT 1\nSELECT 2\nSELECT 3\nSELECT 4\n":                                 "has 4 lines but the gold set g has 3 items",
		`{"id": "x", "sql": "SELECT 1"}`:                                           `p:1: "x" is not an item of the gold set g`,
		`{"id": "a", "sql": "SELECT 1"}` + "\n" + `{"id": "a", "sql": "SELECT 1"}`: `p:2: a second prediction for "a"`,
		`{"id": "a", "sql": "SELECT 1", "extra": 1}`:                               `p:1: not a prediction`,
		`{"sql": "SELECT 1"}`:                                                      `p:1: the prediction has no id`,
	} {
		_, err := ParsePredictions("p", []byte(text), g)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", text, err, want)
		}
	}
}

func TestBuiltinForDialect(t *testing.T) {
	if names := BuiltinNames(); !slices.Equal(names, []string{"chinook"}) || IsBuiltin("chinook_postgresql") {
		t.Fatalf("built-in: %v (a translation is not a set of its own)", names)
	}
	if _, err := Builtin("chinook_postgresql"); err == nil {
		t.Error("Builtin(chinook_postgresql) worked")
	}
	base, err := Builtin("chinook")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"sqlite", "", "duckdb"} {
		g, err := LoadFor("chinook", d)
		if err != nil || !g.Builtin || g.Source != "built-in" || g.Dialect != "sqlite" || !reflect.DeepEqual(g, base) {
			t.Errorf("LoadFor(chinook, %q) = %+v, %v: want the set as written", d, g, err)
		}
	}
	pg, err := LoadFor("chinook", "postgresql")
	if err != nil {
		t.Fatal(err)
	}
	if pg.Name != "chinook" || !pg.Builtin || pg.Source != "built-in (postgresql)" || pg.Dialect != "postgresql" || !strings.Contains(pg.Database, "PostgreSQL") {
		t.Errorf("LoadFor(chinook, postgresql) = %s, %s, %v, %s, %q", pg.Name, pg.Source, pg.Builtin, pg.Dialect, pg.Database)
	}
	if again, err := pg.ForDialect("postgresql"); err != nil || again != pg {
		t.Errorf("ForDialect on the translation itself: %v", err)
	}
	if back, err := pg.ForDialect("sqlite"); err != nil || !reflect.DeepEqual(back, base) {
		t.Errorf("ForDialect(sqlite) on the translation: %v", err)
	}
	// The same items in the same order, only the queries differ (BuiltinFor
	// checks the rest); every query is translated.
	if len(pg.Items) != len(base.Items) {
		t.Fatalf("%d items, the set has %d", len(pg.Items), len(base.Items))
	}
	camel := regexp.MustCompile(`\b(Artist|Album|Track|Genre|MediaType|Playlist|PlaylistTrack|Invoice|InvoiceLine|Customer|Employee)(Id)?\b|[a-z][A-Z]|strftime`)
	for i, it := range pg.Items {
		b := base.Items[i]
		if len(it.Alternatives) != len(b.Alternatives) {
			t.Errorf("%s: %d alternatives, the set has %d", it.ID, len(it.Alternatives), len(b.Alternatives))
		}
		for _, q := range it.GoldQueries() {
			if m := camel.FindString(q); m != "" {
				t.Errorf("%s: %q is SQLite Chinook's, not PostgreSQL's: %s", it.ID, m, q)
			}
		}
	}
	// A file is used as given, whatever the dialect.
	file := filepath.Join(t.TempDir(), "chinook")
	if err := os.WriteFile(file, []byte("[[item]]\nid = \"a\"\nquestion = \"q\"\ndifficulty = \"easy\"\nsql = \"SELECT 1\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := LoadFor(file, "postgresql")
	if err != nil || g.Builtin || g.Source != file || len(g.Items) != 1 || g.Dialect != "" {
		t.Errorf("LoadFor(file, postgresql) = %+v, %v", g, err)
	}
}
