package profile_test

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"querent/engine/profile"
	"querent/engine/sqlite"
)

func chinook(t testing.TB) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "sqlite", "demo", "Chinook_Sqlite.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "chinook.sqlite")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// build writes a SQLite file with the statements.
func build(t testing.TB, stmts ...string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "gen.sqlite")
	raw, err := sql.Open("sqlite", p)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	for _, s := range stmts {
		if _, err := raw.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	return p
}

func open(t testing.TB, path string) *sqlite.DB {
	t.Helper()
	db, err := sqlite.Open(context.Background(), path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func sum(t testing.TB, path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

func TestChinookProfile(t *testing.T) {
	path := chinook(t)
	before := sum(t, path)
	db := open(t, path)
	p, err := profile.Profile(context.Background(), db, profile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Skipped) != 0 {
		t.Fatalf("skipped: %v", p.Skipped)
	}
	tr := p.Table("Track")
	if tr == nil || tr.Rows != 3503 || tr.Sampled {
		t.Fatalf("Track: %+v", tr)
	}
	comp := tr.Column("Composer")
	if comp.Nulls != 978 || comp.Observed != "text" || comp.Sampled {
		t.Fatalf("Composer: nulls %d, observed %s", comp.Nulls, comp.Observed)
	}
	ms := tr.Column("Milliseconds")
	if ms.Observed != "integer" || ms.Min.V != int64(1071) || ms.Max.V != int64(5286953) || len(ms.Histogram) != 10 {
		t.Fatalf("Milliseconds: %+v", ms)
	}
	var n int64
	for _, b := range ms.Histogram {
		n += b.Count
	}
	if n != 3503 {
		t.Fatalf("histogram counts %d values, want 3503", n)
	}
	g := p.Table("Genre").Column("Name")
	if g.Distinct != 25 || *g.MinLength != 3 || *g.MaxLength != 18 {
		t.Fatalf("Genre.Name: distinct %d, lengths %d–%d", g.Distinct, *g.MinLength, *g.MaxLength)
	}
	mt := tr.Column("MediaTypeId")
	if len(mt.Top) == 0 || mt.Top[0].Value != int64(1) || mt.Top[0].Count != 3034 {
		t.Fatalf("MediaTypeId top: %+v", mt.Top)
	}
	d := p.Table("Invoice").Column("InvoiceDate")
	if d.Observed != "date" || d.Min.V != "2009-01-01 00:00:00" || len(d.Histogram) != 5 {
		t.Fatalf("InvoiceDate: %+v", d)
	}
	found := false
	for _, r := range p.Relationships {
		if r.From == "Track.AlbumId" && r.To == "Album.AlbumId" && !r.Inferred {
			found = r.Matched != nil && *r.Matched == 1
		}
		if r.Inferred {
			t.Errorf("Chinook declares its keys; inferred %+v", r)
		}
	}
	if !found {
		t.Fatalf("no declared Track.AlbumId → Album.AlbumId with matched 1: %+v", p.Relationships)
	}
	db.Close()
	if sum(t, path) != before {
		t.Fatal("the profile changed the database file")
	}
	for _, ext := range []string{"-wal", "-shm", "-journal"} {
		if _, err := os.Stat(path + ext); err == nil {
			t.Fatalf("%s%s exists after profiling", path, ext)
		}
	}
}

func TestInferredJoins(t *testing.T) {
	stmts := []string{
		"CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT, country TEXT)",
		"CREATE TABLE orders (order_no INTEGER PRIMARY KEY, customer_id INTEGER, shop TEXT, amount REAL)",
		"CREATE TABLE shops (code TEXT PRIMARY KEY, city TEXT)",
		"CREATE TABLE visits (visit INTEGER PRIMARY KEY, customer_id INTEGER)",
	}
	for i := 1; i <= 50; i++ {
		stmts = append(stmts, fmt.Sprintf("INSERT INTO customers VALUES (%d, 'c%d', '%s')", i, i, []string{"FR", "CN", "US"}[i%3]))
		stmts = append(stmts, fmt.Sprintf("INSERT INTO shops VALUES ('s%d', 'city%d')", i, i%4))
	}
	for i := 1; i <= 200; i++ {
		stmts = append(stmts, fmt.Sprintf("INSERT INTO orders VALUES (%d, %d, 's%d', %d.5)", i, 1+i%50, 1+i%50, i))
		cust := 1 + i%50
		if i%10 == 0 {
			cust = 1000 + i // 10 % of visits name no customer
		}
		stmts = append(stmts, fmt.Sprintf("INSERT INTO visits VALUES (%d, %d)", i, cust))
	}
	db := open(t, build(t, stmts...))
	p, err := profile.Profile(context.Background(), db, profile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]profile.Relationship{}
	for _, r := range p.Relationships {
		got[r.From] = r
	}
	if r, ok := got["orders.customer_id"]; !ok || r.To != "customers.id" || !r.Inferred || *r.Matched != 1 {
		t.Fatalf("orders.customer_id: %+v (all %+v)", r, p.Relationships)
	}
	if r, ok := got["orders.shop"]; !ok || r.To != "shops.code" || !r.Inferred || *r.Matched != 1 {
		t.Fatalf("orders.shop: %+v", r)
	}
	if r, ok := got["visits.customer_id"]; ok {
		t.Fatalf("visits.customer_id matches 90 %%, inferred %+v", r)
	}
	s, err := profile.Suggest(context.Background(), db, p, "en", 0)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]bool{}
	for _, x := range s {
		kinds[x.Kind] = true
	}
	if !kinds["top_join"] || !kinds["count_by"] {
		t.Fatalf("suggestions %+v lack a join or a count by", s)
	}
}

func TestSampledPastThreshold(t *testing.T) {
	db := open(t, build(t,
		"CREATE TABLE big (id INTEGER PRIMARY KEY, v INTEGER)",
		"WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 3000) INSERT INTO big SELECT i, i % 7 FROM n"))
	p, err := profile.Profile(context.Background(), db, profile.Options{SampleThreshold: 1000, SampleRows: 500})
	if err != nil {
		t.Fatal(err)
	}
	b := p.Table("big")
	if !b.Sampled || b.Rows != 3000 || b.ProfiledRows != 500 || !b.Column("v").Sampled {
		t.Fatalf("big: sampled %v rows %d profiled %d", b.Sampled, b.Rows, b.ProfiledRows)
	}
	p, err = profile.Profile(context.Background(), db, profile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if b := p.Table("big"); b.Sampled || b.ProfiledRows != 3000 || b.Column("v").Distinct != 7 {
		t.Fatalf("big exact: %+v", b)
	}
}

func TestCancelStops(t *testing.T) {
	db := open(t, chinook(t))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := profile.Profile(ctx, db, profile.Options{}); err == nil {
		t.Fatal("a cancelled profile returned no error")
	}
}

func TestSuggestionsRerunAndLanguages(t *testing.T) {
	db := open(t, chinook(t))
	c := profile.NewCache()
	p, err := c.Profile(context.Background(), db, profile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p2, _ := c.Profile(context.Background(), db, profile.Options{}); p2 != p {
		t.Fatal("the cache did not re-use the profile of the same file")
	}
	for _, lang := range profile.Languages {
		s, err := c.Suggest(context.Background(), db, p, lang)
		if err != nil {
			t.Fatal(err)
		}
		if len(s) < 5 || len(s) > 10 {
			t.Fatalf("%s: %d suggestions", lang, len(s))
		}
		for _, x := range s {
			if lang == "zh" && !strings.ContainsAny(x.Question, "每哪按多") {
				t.Errorf("zh question not in Chinese: %s", x.Question)
			}
			if lang == "fr" && !strings.ContainsAny(x.Question, "CQ") {
				t.Errorf("fr question: %s", x.Question)
			}
			res, err := db.Run(context.Background(), x.SQL, engineRun())
			if err != nil {
				t.Fatalf("%s: guard refused %s: %v", x.Question, x.SQL, err)
			}
			a, _ := json.Marshal(res.Rows)
			b, _ := json.Marshal(x.Rows.Values)
			if len(res.Rows) != x.RowCount || string(a) != string(b) {
				t.Fatalf("%s: re-run gives %d rows, kept %d", x.SQL, len(res.Rows), x.RowCount)
			}
		}
	}
}

func TestHostileViewDoesNotStall(t *testing.T) {
	db := open(t, build(t,
		"CREATE TABLE t (a INTEGER, b TEXT)",
		"INSERT INTO t VALUES (1, 'x'), (2, 'y'), (NULL, 'x')",
		"CREATE VIEW forever AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n) SELECT count(*) AS c FROM n"))
	p, err := profile.Profile(context.Background(), db, profile.Options{QueryTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Skipped) != 1 || !strings.HasPrefix(p.Skipped[0], "forever: ") {
		t.Fatalf("skipped: %v", p.Skipped)
	}
	a := p.Table("t").Column("a")
	if a.Nulls != 1 || a.Distinct != 2 || a.Min.V != int64(1) || a.Max.V != int64(2) {
		t.Fatalf("t.a: %+v", a)
	}
}

func TestCacheUntilTheFileChanges(t *testing.T) {
	path := build(t, "CREATE TABLE t (a INTEGER)", "INSERT INTO t VALUES (1), (2)")
	c := profile.NewCache()
	profileOf := func() *profile.Database {
		db, err := sqlite.Open(context.Background(), path, sqlite.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		p, err := c.Profile(context.Background(), db, profile.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	p1 := profileOf()
	if p2 := profileOf(); p2 != p1 {
		t.Fatal("the same file, opened again, was profiled again")
	}
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec("INSERT INTO t VALUES (3)"); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	if p3 := profileOf(); p3 == p1 || p3.Table("t").Rows != 3 {
		t.Fatalf("the changed file's profile: %+v", p3.Table("t"))
	}
}
