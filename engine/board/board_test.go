package board_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	_ "modernc.org/sqlite"

	"querent/engine"
	"querent/engine/board"
	"querent/engine/sqlite"
)

// chinook copies the demo into a temporary folder and opens it under the
// guard; the path lets a test write to its own copy.
func chinook(t *testing.T) (engine.Database, string) {
	t.Helper()
	b, err := os.ReadFile("../sqlite/demo/Chinook_Sqlite.sqlite")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "chinook.db")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return open(t, path), path
}

func open(t *testing.T, path string) engine.Database {
	t.Helper()
	db, err := sqlite.Open(context.Background(), path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// write changes the copy at path outside Querent (as another program would).
func write(t *testing.T, path string, stmts ...string) {
	t.Helper()
	w, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for _, s := range stmts {
		if _, err := w.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

const byCountry = "SELECT BillingCountry, count(*) AS invoices, sum(Total) AS total FROM Invoice GROUP BY BillingCountry ORDER BY BillingCountry"

func TestBoardPinSaveLoad(t *testing.T) {
	ctx := context.Background()
	db, path := chinook(t)
	st := board.NewStore(t.TempDir())
	id := engine.IdentityOf(ctx, db)
	b, err := st.Load(id, path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Pins) != 0 {
		t.Fatalf("a new board has %d cards", len(b.Pins))
	}
	p, err := b.Add(ctx, db, board.Pin{Question: "Invoices by country", SQL: byCountry, Chart: "bar"}, engine.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if p.ID == "" || p.Pinned.RowCount != 24 || len(p.Pinned.Rows) != 24 || !p.Pinned.Complete() {
		t.Fatalf("pinned %q: %d rows (%d kept)", p.ID, p.Pinned.RowCount, len(p.Pinned.Rows))
	}
	again, err := b.Add(ctx, db, board.Pin{Question: "Invoices per country", SQL: " " + byCountry + "\n"}, engine.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if again.ID != p.ID || len(b.Pins) != 1 || b.Pins[0].Question != "Invoices per country" {
		t.Fatalf("the same SQL pinned twice: %d cards, id %q then %q", len(b.Pins), p.ID, again.ID)
	}
	if _, err := b.SetNote(p.ID, "  USA leads  "); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Add(ctx, db, board.Pin{Question: "Tracks", SQL: "SELECT TrackId, Name FROM Track"}, engine.RunOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := st.Save(b); err != nil {
		t.Fatal(err)
	}

	// Another copy of the same database (the same tables) finds the board,
	// whatever its rows.
	db2, path2 := chinook(t)
	write(t, path2, "DELETE FROM InvoiceLine WHERE InvoiceId = 1", "DELETE FROM Invoice WHERE InvoiceId = 1")
	got, err := st.Load(engine.IdentityOf(ctx, db2), path2)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Pins) != 2 || got.Pins[0].Note != "USA leads" || got.Pins[0].SQL != byCountry || got.Pins[0].Chart != "" {
		t.Fatalf("loaded %+v", got.Pins)
	}
	tracks := got.Pins[1]
	if tracks.Pinned.RowCount != 3503 || len(tracks.Pinned.Rows) != board.KeepRows || tracks.Pinned.Complete() {
		t.Fatalf("a long result: %d rows, %d kept", tracks.Pinned.RowCount, len(tracks.Pinned.Rows))
	}
	if err := got.Remove(tracks.ID); err != nil {
		t.Fatal(err)
	}
	if err := got.Remove(tracks.ID); engine.ErrorCode(err) != engine.CodeUsage {
		t.Fatalf("unpinning twice: %v", err)
	}
	if _, err := got.SetNote("nope", "x"); engine.ErrorCode(err) != engine.CodeUsage {
		t.Fatalf("a note on no card: %v", err)
	}

	// A database of other tables has a board of its own.
	other := filepath.Join(t.TempDir(), "other.db")
	write(t, other, "CREATE TABLE t(x)")
	ob, err := st.Load(engine.IdentityOf(ctx, open(t, other)), other)
	if err != nil {
		t.Fatal(err)
	}
	if len(ob.Pins) != 0 {
		t.Fatalf("another database's board has %d cards", len(ob.Pins))
	}
}

func TestBoardRefusesWhatTheGuardRefuses(t *testing.T) {
	ctx := context.Background()
	db, path := chinook(t)
	b, err := board.NewStore(t.TempDir()).Load(engine.IdentityOf(ctx, db), path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"DELETE FROM Invoice", "SELECT nope FROM Invoice", ""} {
		if _, err := b.Add(ctx, db, board.Pin{SQL: q}, engine.RunOptions{}); err == nil {
			t.Errorf("%q was pinned", q)
		}
	}
	if len(b.Pins) != 0 {
		t.Fatalf("%d cards after refusals", len(b.Pins))
	}
}

func TestBoardRerunSaysWhatChanged(t *testing.T) {
	ctx := context.Background()
	db, path := chinook(t)
	st := board.NewStore(t.TempDir())
	b, err := st.Load(engine.IdentityOf(ctx, db), path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{byCountry, "SELECT count(*) AS n FROM Artist", "SELECT Name FROM Genre ORDER BY Name"} {
		if _, err := b.Add(ctx, db, board.Pin{SQL: q}, engine.RunOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Save(b); err != nil {
		t.Fatal(err)
	}
	// Nothing changed yet: each card says so.
	if err := b.RerunAll(ctx, db, engine.RunOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, p := range b.Pins {
		if p.Change == nil || !p.Change.Unchanged {
			t.Fatalf("%s: %+v (error %q)", p.SQL, p.Change, p.Error)
		}
	}

	write(t, path,
		"INSERT INTO Invoice(InvoiceId, CustomerId, InvoiceDate, BillingCountry, Total) VALUES (1000, 1, '2026-01-01', 'USA', 10.5)",
		"INSERT INTO Invoice(InvoiceId, CustomerId, InvoiceDate, BillingCountry, Total) VALUES (1001, 1, '2026-01-02', 'Iceland', 2)",
		"INSERT INTO Genre(GenreId, Name) VALUES (100, 'Zydeco')")
	// The board read back from its file (values as JSON numbers) against
	// the database as it is now, reopened.
	b, err = st.Load(engine.IdentityOf(ctx, db), path)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.RerunAll(ctx, open(t, path), engine.RunOptions{}); err != nil {
		t.Fatal(err)
	}
	c := b.Pins[0].Change
	if c == nil || c.Unchanged || !c.Keyed || c.RowsBefore != 24 || c.RowsNow != 25 || c.Changed != 1 || c.Added != 1 || c.Removed != 0 {
		t.Fatalf("invoices by country: %+v (error %q)", c, b.Pins[0].Error)
	}
	wantCells := []board.CellChange{{Row: "USA", Column: "invoices", Before: "91", Now: "92"}, {Row: "USA", Column: "total", Before: "523.06", Now: "533.56"}}
	if !reflect.DeepEqual(c.Cells, wantCells) {
		t.Errorf("cells %+v, want %+v", c.Cells, wantCells)
	}
	wantTotals := []board.TotalChange{{Column: "invoices", Before: "412", Now: "414"}, {Column: "total", Before: "2328.6", Now: "2341.1"}}
	if !reflect.DeepEqual(c.Totals, wantTotals) {
		t.Errorf("totals %+v, want %+v", c.Totals, wantTotals)
	}
	if c := b.Pins[1].Change; c == nil || !c.Unchanged {
		t.Errorf("the artists' count: %+v", c)
	}
	if c := b.Pins[2].Change; c == nil || c.Unchanged || c.Added != 1 || c.RowsNow != 26 || c.Changed != 0 {
		t.Errorf("the genres: %+v", c)
	}
}

func TestDiffWithoutKeys(t *testing.T) {
	snap := func(rows ...[]any) board.Snapshot {
		return board.Snapshot{Columns: []string{"k", "v"}, Rows: rows, RowCount: int64(len(rows))}
	}
	before := snap([]any{"a", int64(1)}, []any{"a", int64(2)}, []any{"b", int64(3)})
	now := snap([]any{"a", int64(1)}, []any{"a", int64(5)}, []any{"b", int64(3)}, []any{"c", nil})
	c := board.Diff(before, now)
	if c.Keyed || c.Changed != 1 || c.Added != 1 || c.Removed != 0 || c.Unchanged {
		t.Fatalf("%+v", c)
	}
	if want := []board.TotalChange{{Column: "v", Before: "6", Now: "9"}}; !reflect.DeepEqual(c.Totals, want) {
		t.Fatalf("totals %+v", c.Totals)
	}
	other := board.Snapshot{Columns: []string{"k"}, Rows: [][]any{{"a"}}, RowCount: 1}
	if c := board.Diff(before, other); !c.ColumnsChanged || c.Unchanged {
		t.Fatalf("other columns: %+v", c)
	}
}
