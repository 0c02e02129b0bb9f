package sqlite

import (
	"context"
	"path/filepath"
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
	// Successes: by path or sha, one per question (the newest), no failures.
	got, err := h.Successes(ctx, "/a.db", "s1", 10)
	if err != nil {
		t.Fatal(err)
	}
	var qs []string
	for _, e := range got {
		qs = append(qs, e.Question+" → "+e.SQL)
	}
	want := []string{"Albums per artist → SELECT 2", "how many tracks? → SELECT count(*) AS n FROM Track"}
	if len(qs) != 2 || qs[0] != want[0] || qs[1] != want[1] {
		t.Errorf("Successes %q, want %q", qs, want)
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
		if err := h.Record(ctx, engine.HistoryEntry{Database: "/a.db", Question: q, SQL: sql, Status: "ok", FollowsUp: follows}); err != nil {
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
	// Mark the newest "Top customers" wrong: neither it nor the older
	// entry with the same SQL is an example any more.
	top := all[1]
	if err := h.SetWrong(ctx, top.ID, true); err != nil {
		t.Fatal(err)
	}
	ex, _ := h.Successes(ctx, "/a.db", "", 10)
	for _, e := range ex {
		if e.Question == "Top customers by spending" {
			t.Errorf("a wrong answer is still an example: %+v", e)
		}
	}
	if len(ex) != 2 {
		t.Errorf("examples %+v, want the two others", ex)
	}
	got, _ := h.Search(ctx, engine.HistoryQuery{Text: "CUSTOMERS top"})
	if len(got) != 2 || !got[0].Wrong || got[1].Wrong {
		t.Errorf("Search text: %+v", got)
	}
	if err := h.SetWrong(ctx, top.ID, false); err != nil {
		t.Fatal(err)
	}
	if ex, _ = h.Successes(ctx, "/a.db", "", 10); len(ex) != 3 {
		t.Errorf("unmarked: %d examples, want 3", len(ex))
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
