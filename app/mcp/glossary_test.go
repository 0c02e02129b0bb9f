package mcp_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"querent/app/mcp"
	"querent/engine/glossary"
	"querent/engine/sqlite"
)

// list_glossary gives agents the analyst's words for a database, read-only:
// each entry's meaning and checked SQL, a stale one flagged with what to
// do in an agent's words.
func TestListGlossary(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.OpenGlossary(ctx, filepath.Join(t.TempDir(), "glossary.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	g := glossary.New(st)
	f := newFixture(t, 2, mcp.Options{Glossary: g})
	db, err := sqlite.Open(ctx, f.files[0], sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := g.Add(ctx, db, glossary.Entry{Term: "big invoice", Meaning: "an invoice over 20", SQL: "Total > 20", Synonyms: []string{"large invoice"}}); err != nil {
		t.Fatal(err)
	}
	// An entry saved before its column was renamed: its tables' fingerprint
	// is another, and its SQL no longer compiles.
	if err := st.Save(ctx, glossary.RefOf(ctx, db), glossary.Entry{Term: "long track", Meaning: "over five minutes", SQL: "Length > 300000",
		Kind: glossary.KindCondition, Tables: []string{"Track"}, Fingerprint: "0123456789abcdef"}); err != nil {
		t.Fatal(err)
	}
	r := f.call(t, "list_glossary", map[string]any{"database": "chinook"})
	entries, _ := r.doc["entries"].([]any)
	if r.isError || len(entries) != 2 {
		t.Fatalf("list_glossary: %s", r.text)
	}
	for _, x := range entries {
		e := x.(map[string]any)
		switch e["term"] {
		case "big invoice":
			if e["sql"] != "Total > 20" || e["kind"] != "condition" || e["stale"] != false || e["problem"] != nil {
				t.Errorf("big invoice: %v", e)
			}
		case "long track":
			p, _ := e["problem"].(map[string]any)
			hint, _ := p["hint"].(string)
			if e["stale"] != true || p["type"] != "unknown_column" || !strings.Contains(hint, "Milliseconds") ||
				!strings.Contains(hint, "list_glossary") || strings.Contains(hint, "querent ") {
				t.Errorf("long track: %v", e)
			}
		default:
			t.Errorf("unexpected entry %v", e)
		}
	}
	// The second copy is the same file's bytes elsewhere: by its identity
	// (the sha256) it is the same database, with the same glossary.
	if r := f.call(t, "list_glossary", map[string]any{"database": "chinook_2"}); r.isError || !strings.Contains(r.text, `"term":"big invoice"`) {
		t.Errorf("chinook_2: %s", r.text)
	}
}
