package sqlite

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"querent/engine"
	"querent/engine/adapter"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestSchemaGolden compares the Chinook schema document with a golden file
// (go test -run TestSchemaGolden -update rewrites it).
func TestSchemaGolden(t *testing.T) {
	db, err := OpenDemo(context.Background(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s, err := db.Schema(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "schema", "chinook.json")
	if *update {
		os.MkdirAll(filepath.Dir(golden), 0o755)
		if err := os.WriteFile(golden, append(got, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if strings.TrimSpace(string(got)) != strings.TrimSpace(string(want)) {
		t.Errorf("the schema document differs from %s (run with -update after checking the change)\n%s", golden, firstDiff(string(got), string(want)))
	}
	// Spot checks that do not depend on the golden file.
	track := s.Table("Track")
	if track == nil || track.RowCount != 3503 || track.RowCountEstimated {
		t.Fatalf("Track: %+v", track)
	}
	fks := map[string]string{}
	for _, fk := range track.ForeignKeys {
		fks[fk.Column] = fk.References
	}
	if fks["AlbumId"] != "Album(AlbumId)" || fks["GenreId"] != "Genre(GenreId)" || fks["MediaTypeId"] != "MediaType(MediaTypeId)" {
		t.Errorf("Track foreign keys %v", fks)
	}
	if pk := s.Table("PlaylistTrack").PrimaryKey; !reflect.DeepEqual(pk, []string{"PlaylistId", "TrackId"}) {
		t.Errorf("PlaylistTrack primary key %v", pk)
	}
	if vals := s.Table("MediaType").DistinctValues.Get("Name"); vals != nil {
		t.Errorf("MediaType.Name (5 unique names) listed as a category: %v", vals)
	}
	if vals := s.Table("Customer").DistinctValues.Get("Country"); len(vals) != 24 {
		t.Errorf("Customer.Country distinct values: %v", vals)
	}
	if c := s.Table("Invoice").Column("Total"); c.Affinity != "NUMERIC" || c.Nullable {
		t.Errorf("Invoice.Total %+v", c)
	}
	if len(s.Table("Album").Samples.Values) != 3 {
		t.Errorf("Album samples %v", s.Table("Album").Samples)
	}
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) && i < len(bl); i++ {
		if al[i] != bl[i] {
			return "line " + itoa(i+1) + ":\n got: " + al[i] + "\nwant: " + bl[i]
		}
	}
	return "lengths differ"
}

func TestSchemaEdges(t *testing.T) {
	dir := t.TempDir()
	path := makeDB(t, dir, "edges.db",
		"CREATE TABLE big(id INTEGER PRIMARY KEY AUTOINCREMENT, cat TEXT, v REAL)",
		"WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 30000) INSERT INTO big(cat, v) SELECT 'k' || (n % 3), n FROM r",
		"CREATE TABLE orders(a INTEGER, b TEXT, big_id INTEGER REFERENCES big, total REAL GENERATED ALWAYS AS (a * 2) STORED, PRIMARY KEY (a, b)) WITHOUT ROWID",
		"CREATE UNIQUE INDEX orders_b ON orders(b)",
		"CREATE INDEX big_expr ON big(lower(cat))",
		"CREATE VIEW cats AS SELECT cat, count(*) AS n FROM big GROUP BY cat",
		"CREATE TABLE gone(y)", "CREATE VIEW broken AS SELECT y FROM gone", "DROP TABLE gone",
		"CREATE TABLE _querent_imports(table_name TEXT, source_name TEXT, source_sha256 TEXT, sheet TEXT, imported_at TEXT, rows INTEGER, columns_json TEXT)",
		`INSERT INTO _querent_imports VALUES ('big', 'big.csv', '', NULL, '2026-12-01 10:00:00', 30000, '[{"name":"cat","original_name":"Category (main)"},{"name":"v","original_name":"Value €"}]')`,
		"CREATE TABLE blobs(b BLOB, t TEXT)",
		"INSERT INTO blobs VALUES (randomblob(500), printf('%.500c', 'x'))")
	db := openT(t, path, Options{})
	s, err := db.Schema(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	big := s.Table("big")
	if !big.DistinctValuesSampled || !reflect.DeepEqual(big.DistinctValues.Get("cat"), []engine.Value{"k0", "k1", "k2"}) {
		t.Errorf("big.cat distinct %v sampled %v", big.DistinctValues.Get("cat"), big.DistinctValuesSampled)
	}
	if o := big.Column("cat").OriginalName; o == nil || *o != "Category (main)" {
		t.Errorf("big.cat original name %v", o)
	}
	if big.Column("id").OriginalName != nil {
		t.Error("big.id has an original name")
	}
	orders := s.Table("orders")
	if !reflect.DeepEqual(orders.PrimaryKey, []string{"a", "b"}) || orders.Column("total").Generated != "stored" {
		t.Errorf("orders %+v", orders)
	}
	if len(orders.ForeignKeys) != 1 || orders.ForeignKeys[0].References != "big(id)" {
		t.Errorf("orders foreign keys %+v (REFERENCES big without a column means its primary key)", orders.ForeignKeys)
	}
	if len(orders.Indexes) == 0 || orders.Indexes[0].Name != "orders_b" || !orders.Indexes[0].Unique {
		t.Errorf("orders indexes %+v", orders.Indexes)
	}
	if ix := big.Indexes; len(ix) != 1 || !reflect.DeepEqual(ix[0].Columns, []string{"(expression)"}) {
		t.Errorf("big indexes %+v", ix)
	}
	if v := s.Table("cats"); v.Kind != "view" || len(v.Columns) != 2 {
		t.Errorf("view cats %+v", v)
	}
	if b := s.Table("broken"); b.Note == "" || b.RowCount != -1 {
		t.Errorf("broken view: note %q, rows %d", b.Note, b.RowCount)
	}
	for _, name := range []string{"sqlite_sequence", "_querent_imports"} {
		if tb := s.Table(name); tb == nil || !tb.Internal {
			t.Errorf("%s not marked internal", name)
		}
	}
	blobs := s.Table("blobs").Samples.Values[0]
	if b := blobs[0].([]byte); len(b) != adapter.SampleBlobBytes {
		t.Errorf("sample blob of %d bytes", len(b))
	}
	if txt := blobs[1].(string); len([]rune(txt)) != adapter.SampleTextRunes+1 || !strings.HasSuffix(txt, "…") {
		t.Errorf("sample text not cut: %d runes", len([]rune(txt)))
	}
}

// TestSchemaEstimates counts a table of a file too big to count exactly
// (SQLite counts a table in one uninterruptible step): the count is
// estimated, flagged, and close.
func TestSchemaEstimates(t *testing.T) {
	path := makeDB(t, t.TempDir(), "est.db", "CREATE TABLE t(id INTEGER PRIMARY KEY, x)",
		"WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 200000) INSERT INTO t SELECT n, n FROM r")
	db := openT(t, path, Options{ExactCountMaxBytes: 1})
	s, err := db.Schema(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	tb := s.Table("t")
	if !tb.RowCountEstimated || tb.RowCount != 200000 {
		t.Errorf("row count %d estimated %v, want 200000 estimated", tb.RowCount, tb.RowCountEstimated)
	}
}
