package sqlite

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"querent/engine"
)

func TestHistoryStore(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "data", "history.sqlite")
	h, err := OpenHistory(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	base := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	entries := []engine.HistoryEntry{
		{Time: base, Database: "/a.db", DatabaseSHA256: "s1", Question: "How many tracks?", SQL: "SELECT count(*) FROM Track", Status: "ok", RowCount: 1, Model: "m", Client: "cli",
			Attempts: []engine.Attempt{{SQL: "SELECT count(*) FROM Tracks", Error: &engine.AttemptError{Type: "unknown_table", Message: "no such table: Tracks"}}, {SQL: "SELECT count(*) FROM Track"}}},
		{Time: base.Add(time.Minute), Database: "/b.db", Question: "Top artists", SQL: "SELECT 1", Status: "ok", Client: "mcp:claude"},
		{Time: base.Add(2 * time.Minute), Database: "/a.db", DatabaseSHA256: "s1", Question: "how many tracks?", SQL: "SELECT count(*) AS n FROM Track", Status: "ok"},
		{Time: base.Add(3 * time.Minute), Database: "/a.db", Question: "Salaries?", Status: "unanswerable"},
		{Time: base.Add(4 * time.Minute), Database: "/moved.db", DatabaseSHA256: "s1", Question: "Albums per artist", SQL: "SELECT 2", Status: "ok"},
	}
	for _, e := range entries {
		if err := h.Record(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	all, err := h.List(ctx, "", 10)
	if err != nil || len(all) != 5 || all[0].Database != "/moved.db" || !all[4].Time.Equal(base) {
		t.Fatalf("List all: %v %+v", err, all)
	}
	if len(all[4].Attempts) != 2 || all[4].Attempts[0].Error.Type != "unknown_table" {
		t.Errorf("attempts %+v", all[4].Attempts)
	}
	a, _ := h.List(ctx, "/a.db", 2)
	if len(a) != 2 || a[0].Status != "unanswerable" {
		t.Errorf("List /a.db: %+v", a)
	}
	// Nothing verified yet: no examples, whatever the identity.
	if got, err := h.Verified(ctx, engine.DatabaseIdentity{SHA256: "s1"}, 10); err != nil || len(got) != 0 {
		t.Errorf("Verified before any approval: %v %+v", err, got)
	}
	// A second process sees the same history.
	h2, err := OpenHistory(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer h2.Close()
	if n, _ := h2.List(ctx, "", 100); len(n) != 5 {
		t.Errorf("reopened: %d entries", len(n))
	}
}

// TestHistoryMarksAndSearch: an answer marked wrong is never an example
// again (nor another entry with the same question and SQL); entries can be
// searched, saved under a name and deleted; follow-ups keep the question
// they followed.
func TestHistoryMarksAndSearch(t *testing.T) {
	ctx := context.Background()
	h, err := OpenHistory(ctx, filepath.Join(t.TempDir(), "history.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	rec := func(q, sql, follows string) {
		if err := h.Record(ctx, engine.HistoryEntry{Database: "/a.db", DatabaseSHA256: "s1", Question: q, SQL: sql, Status: "ok", FollowsUp: follows}); err != nil {
			t.Fatal(err)
		}
	}
	rec("Top customers by spending", "SELECT CustomerId FROM Invoice GROUP BY 1 ORDER BY sum(Total) DESC LIMIT 5", "")
	rec("and only in Europe?", "SELECT 1", "Top customers by spending")
	rec("Top customers by spending", "SELECT CustomerId FROM Invoice GROUP BY 1 ORDER BY sum(Total) DESC LIMIT 5", "")
	rec("Tracks per genre", "SELECT GenreId, count(*) FROM Track GROUP BY 1", "")
	all, _ := h.Search(ctx, engine.HistoryQuery{Database: "/a.db"})
	if len(all) != 4 || all[0].ID == 0 || all[2].FollowsUp != "Top customers by spending" {
		t.Fatalf("Search all: %+v", all)
	}
	// All approved, then the newest "Top customers" marked wrong: neither
	// it nor the older entry with the same SQL is an example any more.
	top := all[1]
	for _, e := range all {
		approve(t, h, e)
	}
	if err := h.SetWrong(ctx, top.ID, true); err != nil {
		t.Fatal(err)
	}
	ex, _ := h.Verified(ctx, engine.DatabaseIdentity{SHA256: "s1"}, 10)
	for _, e := range ex {
		if e.Question == "Top customers by spending" {
			t.Errorf("a wrong answer is still an example: %+v", e)
		}
	}
	if len(ex) != 1 || ex[0].Question != "Tracks per genre" {
		t.Errorf("examples %+v, want the genre's only (not the follow-up)", ex)
	}
	got, _ := h.Search(ctx, engine.HistoryQuery{Text: "CUSTOMERS top"})
	if len(got) != 2 || !got[0].Wrong || got[1].Wrong {
		t.Errorf("Search text: %+v", got)
	}
	if err := h.SetWrong(ctx, top.ID, false); err != nil {
		t.Fatal(err)
	}
	if ex, _ = h.Verified(ctx, engine.DatabaseIdentity{SHA256: "s1"}, 10); len(ex) != 2 {
		t.Errorf("unmarked: %d examples, want 2 (marking wrong took back the approval)", len(ex))
	}
	// Saved under a name; found by it; deleted.
	if err := h.SetName(ctx, all[0].ID, " Genres "); err != nil {
		t.Fatal(err)
	}
	saved, _ := h.Search(ctx, engine.HistoryQuery{Saved: true})
	if len(saved) != 1 || saved[0].Name != "Genres" {
		t.Errorf("saved %+v", saved)
	}
	if byName, _ := h.Search(ctx, engine.HistoryQuery{Text: "genres"}); len(byName) != 1 {
		t.Errorf("by name %+v", byName)
	}
	if err := h.Delete(ctx, all[0].ID); err != nil {
		t.Fatal(err)
	}
	if left, _ := h.Search(ctx, engine.HistoryQuery{}); len(left) != 3 {
		t.Errorf("after delete: %d entries", len(left))
	}
}

func approve(t *testing.T, h *HistoryStore, e engine.HistoryEntry) {
	t.Helper()
	e.Verified = engine.VerifiedApproved
	if err := h.SetVerified(context.Background(), e); err != nil {
		t.Fatal(err)
	}
}

// TestHistoryVerified: only approved or corrected answers are examples,
// found by the database's sha256 or by its schema's identity, never by its
// path; a correction replaces the answer's SQL and keeps the model's.
func TestHistoryVerified(t *testing.T) {
	ctx := context.Background()
	h, err := OpenHistory(ctx, filepath.Join(t.TempDir(), "history.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	for _, e := range []engine.HistoryEntry{
		{Database: "/a.db", DatabaseSHA256: "s1", SchemaSHA256: "k1", Question: "How many tracks?", SQL: "SELECT count(*) FROM Track", Status: "ok"},
		{Database: "/a.db", DatabaseSHA256: "s1", SchemaSHA256: "k1", Question: "Best-selling track", SQL: "SELECT Name FROM Track ORDER BY Milliseconds DESC LIMIT 1", Status: "ok"},
		{Database: "/a.db", DatabaseSHA256: "s2", SchemaSHA256: "k2", Question: "Biggest customer", SQL: "SELECT 1", Status: "ok"},
		{Database: "/a.db", DatabaseSHA256: "s1", SchemaSHA256: "k1", Question: "Unchecked question", SQL: "SELECT 2", Status: "ok"},
		{Database: "/a.db", DatabaseSHA256: "s1", Question: "Failed one", SQL: "SELECT nosuch", Status: "unknown_column"},
	} {
		if err := h.Record(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	es, _ := h.Search(ctx, engine.HistoryQuery{})
	byQ := map[string]engine.HistoryEntry{}
	for _, e := range es {
		byQ[e.Question] = e
	}
	approve(t, h, byQ["How many tracks?"])
	approve(t, h, byQ["Biggest customer"])
	fix := byQ["Best-selling track"]
	fix.Verified, fix.OriginalSQL = engine.VerifiedCorrected, fix.SQL
	fix.SQL, fix.RowCount = "SELECT t.Name FROM InvoiceLine il JOIN Track t USING (TrackId) GROUP BY t.TrackId ORDER BY sum(il.Quantity) DESC LIMIT 1", 1
	if err := h.SetVerified(ctx, fix); err != nil {
		t.Fatal(err)
	}
	questions := func(id engine.DatabaseIdentity) []string {
		got, err := h.Verified(ctx, id, 10)
		if err != nil {
			t.Fatal(err)
		}
		qs := []string{}
		for _, e := range got {
			qs = append(qs, e.Question+" ["+e.Verified+"]")
		}
		return qs
	}
	cases := []struct {
		name string
		id   engine.DatabaseIdentity
		want []string
	}{
		{"the same file", engine.DatabaseIdentity{SHA256: "s1"}, []string{"Best-selling track [corrected]", "How many tracks? [approved]"}},
		{"its rows changed, its tables not", engine.DatabaseIdentity{SHA256: "s9", SchemaSHA256: "k1"}, []string{"Best-selling track [corrected]", "How many tracks? [approved]"}},
		{"another database at the same path", engine.DatabaseIdentity{SHA256: "s3", SchemaSHA256: "k3"}, []string{}},
		{"no identity", engine.DatabaseIdentity{}, []string{}},
	}
	for _, c := range cases {
		if got := questions(c.id); strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	got, err := h.Get(ctx, fix.ID)
	if err != nil || got.Verified != engine.VerifiedCorrected || got.OriginalSQL != byQ["Best-selling track"].SQL || !strings.Contains(got.SQL, "Quantity") || got.VerifiedAt.IsZero() {
		t.Errorf("the corrected entry: %v %+v", err, got)
	}
	if _, err := h.Get(ctx, 999); engine.ErrorCode(err) != engine.CodeUsage || !strings.Contains(engine.AsError(err).Hint, "querent history --format json") {
		t.Errorf("a missing entry: %v", err)
	}
}

// TestHistoryMigratesVerified: a history file of an older Querent gains
// the verified columns and keeps its entries (none verified).
func TestHistoryMigratesVerified(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "history.sqlite")
	old, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := old.Exec(`CREATE TABLE history (id INTEGER PRIMARY KEY, time TEXT NOT NULL, database TEXT NOT NULL,
  database_sha256 TEXT NOT NULL DEFAULT '', question TEXT NOT NULL DEFAULT '', sql TEXT NOT NULL DEFAULT '', status TEXT NOT NULL,
  row_count INTEGER NOT NULL DEFAULT 0, duration_s REAL NOT NULL DEFAULT 0, model TEXT NOT NULL DEFAULT '', client TEXT NOT NULL DEFAULT '',
  attempts_json TEXT NOT NULL DEFAULT '[]');
INSERT INTO history (time, database, database_sha256, question, sql, status) VALUES ('2026-01-01T00:00:00Z', '/a.db', 's1', 'q', 'SELECT 1', 'ok')`); err != nil {
		t.Fatal(err)
	}
	old.Close()
	h, err := OpenHistory(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	es, err := h.List(ctx, "", 10)
	if err != nil || len(es) != 1 || es[0].Verified != "" {
		t.Fatalf("migrated: %v %+v", err, es)
	}
	approve(t, h, es[0])
	if got, _ := h.Verified(ctx, engine.DatabaseIdentity{SHA256: "s1"}, 10); len(got) != 1 {
		t.Errorf("approved after the migration: %+v", got)
	}
}
