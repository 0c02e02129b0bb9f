package verified_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"querent/engine"
	"querent/engine/eval"
	"querent/engine/sqlite"
	"querent/engine/verified"
)

type rig struct {
	db   engine.Database
	hist *sqlite.HistoryStore
	path string
}

// newRig opens a copy of the Chinook demo and a new history, recording
// the entries given as asked of it.
func newRig(t *testing.T, entries ...engine.HistoryEntry) *rig {
	t.Helper()
	ctx := context.Background()
	b, err := os.ReadFile("../sqlite/demo/Chinook_Sqlite.sqlite")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "chinook.db")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	db, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	h, err := sqlite.OpenHistory(ctx, filepath.Join(t.TempDir(), "history.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	id := engine.IdentityOf(ctx, db)
	for _, e := range entries {
		e.Database, e.DatabaseSHA256, e.SchemaSHA256 = path, id.SHA256, id.SchemaSHA256
		if err := h.Record(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	return &rig{db: db, hist: h, path: path}
}

var (
	tracks   = engine.HistoryEntry{Question: "How many tracks?", SQL: "SELECT count(*) FROM Track", Status: "ok", RowCount: 1}
	bestSell = engine.HistoryEntry{Question: "Which track sold best?", SQL: "SELECT Name FROM Track ORDER BY Milliseconds DESC LIMIT 1", Status: "ok", RowCount: 1}
	failed   = engine.HistoryEntry{Question: "Salaries per employee", Status: "unanswerable"}
	direct   = engine.HistoryEntry{SQL: "SELECT 1", Status: "ok", RowCount: 1}
)

func TestApprove(t *testing.T) {
	ctx := context.Background()
	r := newRig(t, tracks, failed, direct)
	e, err := verified.Approve(ctx, r.hist, 1)
	if err != nil || e.Verified != engine.VerifiedApproved {
		t.Fatalf("approve: %v %+v", err, e)
	}
	if got, _ := r.hist.Verified(ctx, engine.IdentityOf(ctx, r.db), 10); len(got) != 1 || got[0].SQL != tracks.SQL {
		t.Errorf("verified after approving: %+v", got)
	}
	for _, c := range []struct {
		id        int64
		msg, hint string
	}{
		{2, "entry 2 has no answer to approve: it ended in an error (unanswerable)", "give the right SQL with querent history correct --sql SQL 2"},
		{3, "entry 3 is a query run directly, without a question", "an example pairs a question with its SQL"},
		{9, "the history has no entry 9", "querent history --format json lists the entries"},
	} {
		_, err := verified.Approve(ctx, r.hist, c.id)
		e := engine.AsError(err)
		if e.Code != engine.CodeUsage || e.Message != c.msg || !strings.Contains(e.Hint, c.hint) {
			t.Errorf("approve %d: %q (%q), want %q (%q)", c.id, e.Message, e.Hint, c.msg, c.hint)
		}
	}
}

// TestCorrect: a correction runs under the guard on the same database and
// replaces the answer, the model's SQL kept; one that does not compile, or
// writes, is refused with the database's own error and changes nothing.
func TestCorrect(t *testing.T) {
	ctx := context.Background()
	r := newRig(t, bestSell)
	opts := engine.RunOptions{MaxRows: 100, Timeout: 5 * time.Second}
	refusals := []struct {
		sql, code, msg, hint string
	}{
		{"SELECT t.Name FROM InvoiceLine il JOIN Track t USING (TrackId) GROUP BY t.TrackId ORDER BY sum(il.Quantiti) DESC LIMIT 1",
			engine.CodeUnknownColumn, "the correction of entry 1 was refused, the answer is unchanged: ", "Quantity"},
		{"DELETE FROM Track", engine.CodeRefused, "the correction of entry 1 was refused, the answer is unchanged: ", ""},
		{"SELEC 1", engine.CodeSyntax, "the correction of entry 1 was refused", ""},
	}
	for _, c := range refusals {
		_, _, err := verified.Correct(ctx, r.hist, r.db, 1, c.sql, opts)
		e := engine.AsError(err)
		if e.Code != c.code || !strings.HasPrefix(e.Message, c.msg) || !strings.Contains(e.Hint, c.hint) {
			t.Errorf("%s: %s %q (%q)", c.sql, e.Code, e.Message, e.Hint)
		}
	}
	if e, _ := r.hist.Get(ctx, 1); e.SQL != bestSell.SQL || e.Verified != "" {
		t.Fatalf("a refused correction changed the entry: %+v", e)
	}
	fix := "SELECT t.Name FROM InvoiceLine il JOIN Track t USING (TrackId) GROUP BY t.TrackId ORDER BY sum(il.Quantity) DESC, t.TrackId LIMIT 1"
	e, ans, err := verified.Correct(ctx, r.hist, r.db, 1, "  "+fix+"\n", opts)
	if err != nil || ans.RowCount != 1 || ans.Results.Values[0][0] != "Balls to the Wall" {
		t.Fatalf("correct: %v %+v", err, ans)
	}
	got, _ := r.hist.Get(ctx, 1)
	if got.SQL != fix || got.OriginalSQL != bestSell.SQL || got.Verified != engine.VerifiedCorrected || got.RowCount != 1 || e.ID != 1 {
		t.Errorf("the corrected entry: %+v", got)
	}
	// Another database at the same path is refused.
	other := filepath.Join(t.TempDir(), "other.db")
	oh, err := sqlite.OpenHistory(ctx, other)
	if err != nil {
		t.Fatal(err)
	}
	oh.Close()
	odb, err := sqlite.Open(ctx, other, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer odb.Close()
	_, _, err = verified.Correct(ctx, r.hist, odb, 1, "SELECT 1", opts)
	if e := engine.AsError(err); e.Code != engine.CodeUsage || !strings.Contains(e.Message, "another database") || !strings.Contains(e.Hint, "--db FILE") {
		t.Errorf("another database: %v", err)
	}
}

// TestGoldExportImport: the verified answers are a gold set, written in the
// eval's format and read back into another history, each item checked by
// the guard first.
func TestGoldExportImport(t *testing.T) {
	ctx := context.Background()
	r := newRig(t, tracks, bestSell, failed)
	if _, err := verified.Gold(ctx, r.hist, r.db); engine.ErrorCode(err) != engine.CodeUsage || !strings.Contains(engine.AsError(err).Hint, "querent history approve ID") {
		t.Errorf("no verified answers: %v", err)
	}
	if _, err := verified.Approve(ctx, r.hist, 1); err != nil {
		t.Fatal(err)
	}
	fix := "SELECT t.Name FROM InvoiceLine il JOIN Track t USING (TrackId) GROUP BY t.TrackId ORDER BY sum(il.Quantity) DESC, t.TrackId LIMIT 1"
	if _, _, err := verified.Correct(ctx, r.hist, r.db, 2, fix, engine.RunOptions{MaxRows: 10}); err != nil {
		t.Fatal(err)
	}
	data, n, err := verified.Export(ctx, r.hist, r.db, time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC))
	if err != nil || n != 2 {
		t.Fatalf("export: %v, %d items", err, n)
	}
	g, err := eval.Parse("team.toml", data)
	if err != nil {
		t.Fatalf("the export is not a gold set: %v\n%s", err, data)
	}
	if len(g.Items) != 2 || g.Items[0].ID != "verified-1" || g.Items[0].Difficulty != "easy" || g.Items[1].SQL != fix || g.Items[1].Difficulty != "medium" {
		t.Errorf("items %+v %+v", g.Items[0], g.Items[1])
	}
	// A teammate's history, on their copy: one more item, whose column is wrong.
	g.Items = append(g.Items, &eval.Item{ID: "bad", Question: "Longest track", SQL: "SELECT Name FROM Track ORDER BY Millis DESC LIMIT 1", Difficulty: "easy"})
	mate := newRig(t)
	rep, err := verified.Import(ctx, mate.hist, mate.db, g, "import")
	if err != nil || len(rep.Added) != 2 || len(rep.Refused) != 1 || rep.Refused[0].Error.Type != engine.CodeUnknownColumn {
		t.Fatalf("import: %v %+v", err, rep)
	}
	got, _ := mate.hist.Verified(ctx, engine.IdentityOf(ctx, mate.db), 10)
	if len(got) != 2 || got[0].Question != bestSell.Question || got[0].Verified != engine.VerifiedApproved {
		t.Errorf("the teammate's verified answers: %+v", got)
	}
	if rep, _ = verified.Import(ctx, mate.hist, mate.db, g, "import"); len(rep.Added) != 0 || len(rep.Skipped) != 2 {
		t.Errorf("imported twice: %+v", rep)
	}
}
