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
