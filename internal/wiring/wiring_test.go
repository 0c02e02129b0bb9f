package wiring

import (
	"context"
	"strings"
	"testing"
	"time"

	"querent/engine"
)

// TestHashStoreFillsHistory: a sha256 learnt after a file's answers were
// recorded under its quick identity is remembered, and replaces the quick
// identity in those entries.
func TestHashStoreFillsHistory(t *testing.T) {
	t.Setenv("QUERENT_DATA_DIR", t.TempDir())
	ctx := context.Background()
	h, closeH, err := OpenHistory(ctx)
	if err != nil {
		t.Fatal(err)
	}
	quick, sum := "quick:"+strings.Repeat("0", 64), strings.Repeat("ab", 32)
	for _, sha := range []string{quick, "other"} {
		if err := h.Record(ctx, engine.HistoryEntry{Time: time.Now(), Database: "/x.db", DatabaseSHA256: sha, SQL: "SELECT 1", Status: "ok"}); err != nil {
			t.Fatal(err)
		}
	}
	closeH()
	var hs hashStore
	if got := hs.Lookup(quick); got != "" {
		t.Fatalf("known before: %q", got)
	}
	hs.Store(quick, sum)
	if got := hs.Lookup(quick); got != sum {
		t.Errorf("lookup %q", got)
	}
	h, closeH, err = OpenHistory(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer closeH()
	entries, err := h.List(ctx, "", 10)
	if err != nil || len(entries) != 2 || entries[0].DatabaseSHA256 != "other" || entries[1].DatabaseSHA256 != sum {
		t.Errorf("history %+v %v", entries, err)
	}
}
