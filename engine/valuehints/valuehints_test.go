package valuehints_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"querent/engine"
	"querent/engine/enginetest"
	"querent/engine/schemactx"
	"querent/engine/valuehints"
)

// fakeDB is an engine.Database whose Run is a function field.
type fakeDB struct {
	run func(ctx context.Context, sql string, opts engine.RunOptions) (*engine.Result, error)
}

func (d *fakeDB) Dialect() string    { return "sqlite" }
func (d *fakeDB) Name() string       { return "fake" }
func (d *fakeDB) Warnings() []string { return nil }
func (d *fakeDB) Schema(context.Context) (*engine.Schema, error) {
	return nil, errors.New("no schema")
}
func (d *fakeDB) Validate(context.Context, string) (*engine.Validation, error) {
	return nil, errors.New("no validate")
}
func (d *fakeDB) Run(ctx context.Context, sql string, opts engine.RunOptions) (*engine.Result, error) {
	return d.run(ctx, sql, opts)
}
func (d *fakeDB) Explain(context.Context, string) ([]string, error) { return nil, nil }
func (d *fakeDB) Close() error                                      { return nil }
func (d *fakeDB) Stream(context.Context, string, engine.StreamOptions, func([]engine.Column) error, func([]engine.Value) error) (*engine.StreamInfo, error) {
	return nil, errors.New("no stream")
}

var _ engine.Database = (*fakeDB)(nil)

var (
	chinookOnce  sync.Once
	chinookIndex *valuehints.Index
	chinookTime  time.Duration
	chinookErr   error
)

func chinook(t testing.TB) *valuehints.Index {
	t.Helper()
	db, s := enginetest.Chinook(t)
	chinookOnce.Do(func() {
		start := time.Now()
		chinookIndex, chinookErr = valuehints.BuildIndex(context.Background(), db, s, valuehints.IndexOptions{})
		chinookTime = time.Since(start)
	})
	if chinookErr != nil {
		t.Fatalf("BuildIndex: %v", chinookErr)
	}
	return chinookIndex
}

func TestValueHintsChinook(t *testing.T) {
	vi := chinook(t)
	t.Logf("index of %d values built in %v; skipped %v", vi.Len(), chinookTime, vi.Skipped())
	if len(vi.Skipped()) != 0 {
		t.Errorf("Skipped = %v, want none on Chinook", vi.Skipped())
	}
	type hint struct {
		table, column, value string
		exact                bool
	}
	tests := []struct {
		question string
		want     *hint // the first hint; nil: no hints at all
	}{
		{"customers in brasil", &hint{"Customer", "Country", "Brazil", false}},
		{"tracks by acdc", &hint{"Artist", "Name", "AC/DC", true}},
		{"songs by ac dc", &hint{"Artist", "Name", "AC/DC", true}},
		{"rock songs", &hint{"Genre", "Name", "Rock", true}},
		{"albums by led zepelin", &hint{"Artist", "Name", "Led Zeppelin", false}},
		{"albums by Led Zeppelin", &hint{"Artist", "Name", "Led Zeppelin", true}},
		{"rock and roll tracks", &hint{"Genre", "Name", "Rock And Roll", true}},
		{"invoices from united kingdom", &hint{"Invoice", "BillingCountry", "United Kingdom", true}},
		{"customers in sao paulo", &hint{"Customer", "City", "São Paulo", true}},
		{"how many invoices", nil},
		{"what is the total", nil},
		{"how many tracks are there", nil},
		{"top 10 tracks by total time", nil},
		{"which artist has the most albums", nil},
		// Spelled exactly, and listed in the schema: the model sees it.
		{"customers in Brazil", nil},
	}
	for _, tt := range tests {
		t.Run(tt.question, func(t *testing.T) {
			got := vi.Hints(tt.question, 5)
			if tt.want == nil {
				if len(got) != 0 {
					t.Errorf("Hints = %v, want none", got)
				}
				return
			}
			if len(got) == 0 {
				t.Fatalf("Hints = none, want %v", *tt.want)
			}
			g := got[0]
			if h := (hint{g.Table, g.Column, g.Value, g.Exact}); h != *tt.want {
				t.Errorf("first hint = %+v, want %+v (all: %v)", h, *tt.want, got)
			}
		})
	}
}

func TestValueHintsDetails(t *testing.T) {
	vi := chinook(t)
	got := vi.Hints("customers in brasil", 5)
	if len(got) == 0 {
		t.Fatal("no hints")
	}
	if got[0].Matched != "brasil" || !reflect.DeepEqual(got[0].AlsoIn, []string{"Invoice.BillingCountry"}) {
		t.Errorf("hint = %+v, want Matched brasil, AlsoIn [Invoice.BillingCountry]", got[0])
	}
	if s, want := got[0].String(), `Customer.Country = 'Brazil' (the question says "brasil"; also in Invoice.BillingCountry)`; s != want {
		t.Errorf("String() = %s, want %s", s, want)
	}
	// A value the question spells exactly but the schema does not list:
	// the hint is kept for its column.
	got = vi.Hints("songs by AC/DC", 5)
	if len(got) == 0 || got[0].Value != "AC/DC" || got[0].Column != "Name" {
		t.Fatalf("Hints = %v, want Artist.Name 'AC/DC'", got)
	}
	if s, want := got[0].String(), `Artist.Name = 'AC/DC' (also in Track.Composer)`; s != want {
		t.Errorf("String() = %s, want %s", s, want)
	}
	// Several values, best first, within max.
	got = vi.Hints("rock or jazz or blues tracks from canada by led zepelin", 3)
	if len(got) != 3 {
		t.Fatalf("got %d hints, want 3: %v", len(got), got)
	}
	if got[0].Value == "Led Zeppelin" {
		t.Errorf("a typo match ranked first: %v", got)
	}
	if got := vi.Hints("rock or jazz", 0); len(got) != 2 {
		t.Errorf("max 0: got %v, want 2 hints", got)
	}
	var nilIndex *valuehints.Index
	if got := nilIndex.Hints("rock", 5); got != nil || nilIndex.Len() != 0 {
		t.Errorf("a nil index gave %v", got)
	}
}

func TestValueHintString(t *testing.T) {
	tests := []struct {
		h    valuehints.Hint
		want string
	}{
		{valuehints.Hint{Table: "Genre", Column: "Name", Value: "Rock", Matched: "rock", Exact: true}, `Genre.Name = 'Rock' (the question says "rock")`},
		{valuehints.Hint{Table: "Genre", Column: "Name", Value: "Rock", Matched: "Rock", Exact: true}, `Genre.Name = 'Rock'`},
		{valuehints.Hint{Table: "order", Column: "first name", Value: "O'Neil\n", Matched: "oneil"}, `"order"."first name" = 'O''Neil\n' (the question says "oneil")`},
	}
	for _, tt := range tests {
		if got := tt.h.String(); got != tt.want {
			t.Errorf("String() = %s, want %s", got, tt.want)
		}
	}
}

func col(name, typ, aff string) *engine.TableColumn {
	return &engine.TableColumn{Name: name, Type: typ, Affinity: aff, Nullable: true}
}

func TestBuildValueIndexFake(t *testing.T) {
	s := &engine.Schema{Tables: []*engine.Table{
		{Name: "people", Kind: "table", RowCount: 3, Columns: []*engine.TableColumn{
			col("id", "INTEGER", "INTEGER"), col("city", "TEXT", "TEXT"), col("age", "INTEGER", "INTEGER"),
			col("notes", "TEXT", "TEXT"), col("broken", "TEXT", "TEXT"), col("tag", "", "BLOB"),
			col("born", "DATE", "NUMERIC"),
		}},
		{Name: "v", Kind: "view", Columns: []*engine.TableColumn{col("city", "TEXT", "TEXT")}},
		{Name: "_querent_imports", Kind: "table", Internal: true, Columns: []*engine.TableColumn{col("table_name", "TEXT", "TEXT")}},
	}}
	var queries []string
	db := &fakeDB{run: func(ctx context.Context, sql string, opts engine.RunOptions) (*engine.Result, error) {
		queries = append(queries, sql)
		if opts.MaxRows != 4 || opts.Timeout <= 0 {
			t.Errorf("RunOptions = %+v, want MaxRows 4 and a timeout", opts)
		}
		rows := func(vals ...string) *engine.Result {
			r := &engine.Result{Columns: []engine.Column{{Name: "c"}}}
			for _, v := range vals {
				r.Rows = append(r.Rows, []engine.Value{v})
			}
			return r
		}
		switch {
		case strings.Contains(sql, `"city"`):
			return rows("Zürich", "New York", "x"), nil
		case strings.Contains(sql, `"notes"`):
			return rows("a1", "b2", "c3", "d4"), nil
		case strings.Contains(sql, `"broken"`):
			return nil, engine.Errorf(engine.CodeSyntax, "no such column: broken")
		case strings.Contains(sql, `"tag"`):
			return rows("red-hot", "Zürich", "blue"), nil
		}
		t.Errorf("unexpected query %s", sql)
		return rows(), nil
	}}
	vi, err := valuehints.BuildIndex(context.Background(), db, s, valuehints.IndexOptions{MaxDistinct: 3})
	if err != nil {
		t.Fatal(err)
	}
	wantQueries := []string{
		`SELECT DISTINCT +c FROM (SELECT "city" AS c FROM "people" LIMIT 1000000) WHERE typeof(c) = 'text' AND length(c) <= 100 LIMIT 4`,
		`SELECT DISTINCT +c FROM (SELECT "notes" AS c FROM "people" LIMIT 1000000) WHERE typeof(c) = 'text' AND length(c) <= 100 LIMIT 4`,
		`SELECT DISTINCT +c FROM (SELECT "broken" AS c FROM "people" LIMIT 1000000) WHERE typeof(c) = 'text' AND length(c) <= 100 LIMIT 4`,
		`SELECT DISTINCT +c FROM (SELECT "tag" AS c FROM "people" LIMIT 1000000) WHERE typeof(c) = 'text' AND length(c) <= 100 LIMIT 4`,
	}
	if !reflect.DeepEqual(queries, wantQueries) {
		t.Errorf("queries:\n%s\nwant:\n%s", strings.Join(queries, "\n"), strings.Join(wantQueries, "\n"))
	}
	wantSkipped := []string{"people.notes: more than 3 distinct values", "people.broken: no such column: broken"}
	if got := vi.Skipped(); !reflect.DeepEqual(got, wantSkipped) {
		t.Errorf("Skipped = %q, want %q", got, wantSkipped)
	}
	// "x" is too short to match; Zürich is stored once for two columns.
	if got, want := vi.Len(), 4; got != want {
		t.Errorf("Len = %d, want %d", got, want)
	}
	tests := []struct {
		question string
		want     []string
	}{
		{"people in zurich", []string{`people.city = 'Zürich' (the question says "zurich"; also in people.tag)`}},
		{"people in newyork", []string{`people.city = 'New York' (the question says "newyork")`}},
		{"tagged red hot", []string{`people.tag = 'red-hot' (the question says "red hot")`}},
		{"people in new yrok", []string{`people.city = 'New York' (the question says "new yrok")`}},
		{"x", nil},
	}
	for _, tt := range tests {
		var got []string
		for _, h := range vi.Hints(tt.question, 5) {
			got = append(got, h.String())
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Hints(%q) = %q, want %q", tt.question, got, tt.want)
		}
	}
}

func TestBuildValueIndexBudget(t *testing.T) {
	var cols []*engine.TableColumn
	for i := 0; i < 6; i++ {
		cols = append(cols, col(fmt.Sprintf("c%d", i), "TEXT", "TEXT"))
	}
	s := &engine.Schema{Tables: []*engine.Table{{Name: "slow", Kind: "table", Columns: cols}}}
	db := &fakeDB{run: func(ctx context.Context, sql string, opts engine.RunOptions) (*engine.Result, error) {
		select {
		case <-ctx.Done():
			return nil, engine.AsError(ctx.Err())
		case <-time.After(opts.Timeout):
			return nil, engine.Errorf(engine.CodeTimeout, "the statement ran past %v", opts.Timeout)
		}
	}}
	start := time.Now()
	vi, err := valuehints.BuildIndex(context.Background(), db, s, valuehints.IndexOptions{Budget: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el > time.Second {
		t.Errorf("the build took %v with a budget of 200ms", el)
	}
	if got := len(vi.Skipped()); got != 6 {
		t.Errorf("Skipped = %q, want all 6 columns", vi.Skipped())
	}
	for _, s := range vi.Skipped() {
		if !strings.HasSuffix(s, ": out of time") {
			t.Errorf("Skipped entry %q, want … out of time", s)
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := valuehints.BuildIndex(ctx, db, s, valuehints.IndexOptions{}); engine.ErrorCode(err) != engine.CodeCancelled {
		t.Errorf("cancelled: err = %v, want code cancelled", err)
	}
}

func TestBuildValueIndexReadsSchema(t *testing.T) {
	db := &fakeDB{}
	if _, err := valuehints.BuildIndex(context.Background(), db, nil, valuehints.IndexOptions{}); err == nil {
		t.Errorf("no error when the schema cannot be read")
	}
}

func BenchmarkBuildValueIndexChinook(b *testing.B) {
	db, s := enginetest.Chinook(b)
	ctx := context.Background()
	for b.Loop() {
		if _, err := valuehints.BuildIndex(ctx, db, s, valuehints.IndexOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkHintsChinook(b *testing.B) {
	vi := chinook(b)
	qs := []string{"customers in brasil", "albums by led zepelin", "how many invoices", "rock songs from the 90s by acdc"}
	i := 0
	for b.Loop() {
		vi.Hints(qs[i%len(qs)], 5)
		i++
	}
}

// BenchmarkQuestionChinook is the engine's side of one question on Chinook
// before the model: value hints, then the schema context with the hints'
// tables named.
func BenchmarkQuestionChinook(b *testing.B) {
	vi := chinook(b)
	_, s := enginetest.Chinook(b)
	ctx := context.Background()
	for b.Loop() {
		q := "total sales per country in brasil"
		hints := vi.Hints(q, 5)
		for _, h := range hints {
			q += " " + h.Table
		}
		schemactx.PruneSchema(ctx, s, q, schemactx.DefaultBudgetTokens, nil)
	}
}

// BenchmarkQuestion300Tables is the same on the 300-table schema, pruned,
// with 200 values in each text column.
func BenchmarkQuestion300Tables(b *testing.B) {
	s := enginetest.BigSchema()
	db := &fakeDB{run: func(ctx context.Context, sql string, opts engine.RunOptions) (*engine.Result, error) {
		col := sql[strings.Index(sql, `(SELECT "`)+9 : strings.Index(sql, `" AS c`)]
		r := &engine.Result{}
		for i := 0; i < 200; i++ {
			r.Rows = append(r.Rows, []engine.Value{fmt.Sprintf("%s %d", strings.ReplaceAll(col, "_", " "), i)})
		}
		return r, nil
	}}
	vi, err := valuehints.BuildIndex(context.Background(), db, s, valuehints.IndexOptions{})
	if err != nil {
		b.Fatal(err)
	}
	if vi.Len() < 100_000 && len(vi.Skipped()) > 0 {
		b.Fatalf("Skipped = %v", vi.Skipped()[:1])
	}
	ctx := context.Background()
	for b.Loop() {
		q := "which suppliers sell products to customers in France"
		for _, h := range vi.Hints(q, 5) {
			q += " " + h.Table
		}
		schemactx.PruneSchema(ctx, s, q, schemactx.DefaultBudgetTokens, nil)
	}
}

// TestValueIndexContinue: the columns a build's budget does not reach (a
// slow server) wait; Continue indexes them into a new index, the first one
// left as its readers see it.
func TestValueIndexContinue(t *testing.T) {
	s := &engine.Schema{Tables: []*engine.Table{{Name: "Customer", Kind: "table",
		Columns: []*engine.TableColumn{col("Country", "TEXT", "TEXT"), col("City", "TEXT", "TEXT")}}}}
	slow := true
	runs := 0
	db := &fakeDB{run: func(ctx context.Context, sql string, opts engine.RunOptions) (*engine.Result, error) {
		runs++
		if slow { // the server answers after the whole budget
			<-ctx.Done()
			return nil, engine.AsError(ctx.Err())
		}
		res := &engine.Result{Columns: []engine.Column{{Name: "c"}}}
		switch {
		case strings.Contains(sql, `"Country"`):
			res.Rows = [][]engine.Value{{"Brazil"}, {"France"}}
		case strings.Contains(sql, `"City"`):
			res.Rows = [][]engine.Value{{"São Paulo"}, {"Paris"}}
		}
		return res, nil
	}}
	first, err := valuehints.BuildIndex(context.Background(), db, s, valuehints.IndexOptions{Budget: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if first.Len() != 0 || first.Pending() != 2 || len(first.Skipped()) != 2 {
		t.Fatalf("after a slow build: %d values, %d pending, skipped %q", first.Len(), first.Pending(), first.Skipped())
	}
	slow = false
	next, err := first.Continue(context.Background(), db, valuehints.IndexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if next.Len() != 4 || next.Pending() != 0 || len(next.Skipped()) != 0 {
		t.Errorf("after Continue: %d values, %d pending, skipped %q", next.Len(), next.Pending(), next.Skipped())
	}
	if hs := next.Hints("customers in brasil", 3); len(hs) == 0 || hs[0].Value != "Brazil" || hs[0].Column != "Country" {
		t.Errorf("hints after Continue: %+v", hs)
	}
	if first.Len() != 0 || first.Pending() != 2 || len(first.Hints("customers in brasil", 3)) != 0 {
		t.Errorf("Continue changed the first index: %d values, %d pending", first.Len(), first.Pending())
	}
	before := runs
	if again, err := next.Continue(context.Background(), db, valuehints.IndexOptions{}); err != nil || again != next || runs != before {
		t.Errorf("Continue with nothing pending: %v, %v, %d more runs", again == next, err, runs-before)
	}
}
