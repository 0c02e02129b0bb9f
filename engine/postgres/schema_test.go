package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"querent/engine"
)

func TestSchema(t *testing.T) {
	db := openReader(t)
	s, err := db.Schema(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*engine.Table{}
	var names []string
	for _, tb := range s.Tables {
		byName[tb.Name] = tb
		names = append(names, tb.Name)
	}
	// The search path's schema first, bare; other schemas qualified; no
	// system schema; nothing the role cannot read (payroll).
	if names[0] != "album" || byName["sales.region"] == nil || byName["payroll"] != nil || byName["pg_class"] != nil {
		t.Fatalf("tables %v", names)
	}
	album := byName["album"]
	if album.Comment != "One row per album, with its artist" || album.Column("title").Comment != "The album's title as printed on the sleeve" {
		t.Errorf("comments: %q %q", album.Comment, album.Column("title").Comment)
	}
	if album.RowCount != 347 || album.RowCountEstimated || album.Kind != "table" {
		t.Errorf("album: %d estimated %v kind %s", album.RowCount, album.RowCountEstimated, album.Kind)
	}
	if strings.Join(album.PrimaryKey, ",") != "album_id" || album.Column("album_id").PK != 1 || album.Column("title").Nullable {
		t.Errorf("album keys: %+v", album.PrimaryKey)
	}
	if len(album.ForeignKeys) != 1 || album.ForeignKeys[0] != (engine.ForeignKey{Column: "artist_id", References: "artist(artist_id)"}) {
		t.Errorf("album foreign keys: %+v", album.ForeignKeys)
	}
	if c := album.Column("title"); c.Type != "character varying(160)" || c.Affinity != "TEXT" {
		t.Errorf("title: %+v", c)
	}
	if c := byName["track"].Column("unit_price"); c.Type != "numeric(10,2)" || c.Affinity != "NUMERIC" {
		t.Errorf("unit_price: %+v", c)
	}
	if len(album.Samples.Values) != 3 || len(album.Samples.Columns) != 3 {
		t.Errorf("album samples: %+v", album.Samples)
	}
	var idx []string
	for _, i := range byName["invoice_line"].Indexes {
		idx = append(idx, fmt.Sprintf("%s(%s)%v", i.Name, strings.Join(i.Columns, ","), i.Unique))
	}
	if !strings.Contains(strings.Join(idx, " "), "invoice_line_pkey(invoice_line_id)true") {
		t.Errorf("invoice_line indexes: %v", idx)
	}
	if v := byName["genre"].DistinctValues.Get("name"); len(v) != 25 {
		t.Errorf("genre names: %v", v)
	}
	if v := byName["media_type"].DistinctValues.Get("name"); len(v) != 5 || v[0] != "AAC audio file" {
		t.Errorf("media types: %v", v)
	}
	if v := byName["customer"].DistinctValues.Get("country"); len(v) != 24 {
		t.Errorf("customer countries: %d %v", len(v), v)
	}
	if v := byName["customer"].DistinctValues.Get("email"); v != nil {
		t.Errorf("customer emails are not categorical: %v", v)
	}
	big := byName["big_events"]
	if !big.RowCountEstimated || big.RowCount < 150000 || big.RowCount > 250000 {
		t.Errorf("big_events: %d estimated %v", big.RowCount, big.RowCountEstimated)
	}
	if v := big.DistinctValues.Get("channel"); len(v) != 3 || !big.DistinctValuesSampled {
		t.Errorf("big_events channels: %v sampled %v", v, big.DistinctValuesSampled)
	}
	if gs := byName["genre_sales"]; gs.Kind != "view" || !strings.HasPrefix(gs.SQL, "CREATE MATERIALIZED VIEW genre_sales AS") || !strings.Contains(gs.Note, "materialized view") {
		t.Errorf("genre_sales: %+v", gs)
	}
	// A view is never run by introspection (reading one runs its
	// definition, which may write or be slow): its columns come from the
	// catalog, with a note, and no count nor samples.
	for _, name := range []string{"evil_view", "slow_view"} {
		if v := byName[name]; v.Kind != "view" || !strings.Contains(v.Note, "its rows are read only when a query asks for them") ||
			len(v.Samples.Values) != 0 || !v.RowCountEstimated || len(v.Columns) == 0 {
			t.Errorf("%s: %+v", name, v)
		}
	}
	if !strings.HasPrefix(byName["album"].SQL, "CREATE TABLE album (album_id integer NOT NULL, title character varying(160) NOT NULL") {
		t.Errorf("album SQL: %s", byName["album"].SQL)
	}
	b, err := json.Marshal(s)
	if err != nil || !strings.Contains(string(b), `"comment":"One row per album, with its artist"`) {
		t.Errorf("JSON: %v", err)
	}
	// Once per connection.
	if s2, _ := db.Schema(context.Background()); s2 != s {
		t.Error("the schema was read twice")
	}
}

// TestSchemaManyTables reads a database of 400 tables within its budget.
func TestSchemaManyTables(t *testing.T) {
	s := server(t)
	ctx := context.Background()
	if _, err := s.Psql(ctx, "postgres", "-c", "CREATE DATABASE wide"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Psql(ctx, "wide", "-c", `DO $$ BEGIN FOR i IN 1..400 LOOP
		EXECUTE format('CREATE TABLE t%s (id int PRIMARY KEY, kind text, ref int REFERENCES t1(id))', i);
		EXECUTE format('INSERT INTO t%s SELECT g, (ARRAY[''a'', ''b''])[1 + g %% 2], NULL FROM generate_series(1, 20) g', i);
	END LOOP; END $$`); err != nil {
		t.Fatal(err)
	}
	db := openURL(t, s.URL("postgres", "s3cret-Super-pw!", "wide"))
	start := time.Now()
	sc, err := db.Schema(ctx)
	elapsed := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.Tables) != 400 {
		t.Fatalf("%d tables", len(sc.Tables))
	}
	counted, sampled := 0, 0
	for _, tb := range sc.Tables {
		if !tb.RowCountEstimated && tb.RowCount == 20 {
			counted++
		}
		if len(tb.Samples.Values) == 3 && len(tb.DistinctValues.Get("kind")) == 2 {
			sampled++
		}
		if len(tb.ForeignKeys) != 1 || len(tb.PrimaryKey) != 1 {
			t.Fatalf("%s: keys %+v %+v", tb.Name, tb.PrimaryKey, tb.ForeignKeys)
		}
	}
	t.Logf("400 tables in %s: %d counted exactly, %d sampled", elapsed, counted, sampled)
	if elapsed > db.opts.SchemaBudget+5*time.Second {
		t.Errorf("the schema took %s (budget %s)", elapsed, db.opts.SchemaBudget)
	}
	if counted+sampled == 0 {
		t.Error("no table was counted or sampled")
	}
	// Past the whole budget, tables are described from the catalog alone.
	db2, err := Open(ctx, s.URL("postgres", "s3cret-Super-pw!", "wide"), Options{SchemaBudget: time.Nanosecond, AllowSuperuser: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	sc, err = db2.Schema(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range sc.Tables {
		if !strings.Contains(tb.Note, "Querent stopped there") || len(tb.Columns) != 3 {
			t.Fatalf("%s past the budget: %q", tb.Name, tb.Note)
		}
	}
}
