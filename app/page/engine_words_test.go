package page_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"querent/app/page"
	"querent/engine"
)

// TestEngineWordsReachThePage: the hints engine/sqlite says in parts reach
// the page through the query worker in parts, said in each of the page's
// languages without a flag or a querent command, the command line's
// English kept for the Details.
func TestEngineWordsReachThePage(t *testing.T) {
	svc, _ := newServices(t)
	// A CSV named as a database (a CSV named as one opens through its
	// workspace, issue 27).
	csv := filepath.Join(t.TempDir(), "data.db")
	os.WriteFile(csv, []byte("a,b\n1,2\n"), 0o644)
	_, err := svc.Datasets.Open(csv)
	d := page.ErrorDoc(err)
	if !strings.Contains(d.Hint, "querent import --db new.sqlite") || !strings.Contains(d.HintSaid["en"], "Import CSV or Excel files") {
		t.Errorf("a CSV file: hint %q, said %q", d.Hint, d.HintSaid)
	}
	if _, err := svc.Datasets.OpenDemo(); err != nil {
		t.Fatal(err)
	}
	ans, err := svc.Results.Run("SELECT nosuch")
	if err != nil || len(ans.Errors) != 1 || ans.Errors[0].Type != engine.CodeUnknownColumn {
		t.Fatalf("unknown column: %v %+v", err, ans)
	}
	if h := ans.Errors[0]; h.Hint != "check the column's name in the schema (querent schema)" || h.HintSaid["en"] != "check the column's name in the sidebar" {
		t.Errorf("unknown column: hint %q, said %q", h.Hint, h.HintSaid)
	}
	for _, said := range []map[string]string{d.HintSaid, ans.Errors[0].HintSaid} {
		if len(said) != 3 {
			t.Errorf("said in %d languages: %q", len(said), said)
		}
		for lang, s := range said {
			if strings.Contains(s, "--") || strings.Contains(s, "querent ") || s == "" {
				t.Errorf("%s: %q", lang, s)
			}
		}
	}
}
