package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Text in double quotes runs as text: the query is shown as written, the
// executed SQL holds the single-quoted text, and a warning says so.
func TestSQLDoubleQuotedText(t *testing.T) {
	q := `SELECT count(*) AS n FROM Customer WHERE Country = "Brazil"`
	warn := `"Brazil" in double quotes is not a column: read as the text 'Brazil' (write text in 'single quotes')`
	code, out, errs := run(t, "", "sql", "--format", "json", q)
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	var doc struct {
		Query       string           `json:"query"`
		ExecutedSQL string           `json:"executed_sql"`
		Results     []map[string]any `json:"results"`
		Warnings    []string         `json:"warnings"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Query != q || !strings.Contains(doc.ExecutedSQL, "Country = 'Brazil'") || len(doc.Results) != 1 || doc.Results[0]["n"] != 5.0 ||
		len(doc.Warnings) != 1 || doc.Warnings[0] != warn {
		t.Errorf("document: %+v", doc)
	}
	code, out, errs = run(t, "", "sql", q)
	if code != 0 || !strings.Contains(errs, warn) || !strings.Contains(out, "5") {
		t.Errorf("table: exit %d\n%s\n%s", code, out, errs)
	}
	// A misspelt column in double quotes is still an error.
	code, _, errs = run(t, "", "sql", `SELECT count(*) FROM Customer WHERE "Contry" = 'Brazil'`)
	if code != 1 || !strings.Contains(errs, "did you mean Country?") {
		t.Errorf("misspelt: exit %d: %s", code, errs)
	}
}

// querent eval accepts a gold set whose gold SQL writes text in double quotes.
func TestEvalCommandDoubleQuotedGold(t *testing.T) {
	gold := writeGold(t, `database = "Chinook"
[[item]]
id = "brazil"
question = "How many customers are in Brazil?"
difficulty = "easy"
sql = 'SELECT count(*) FROM Customer WHERE Country = "Brazil"'
`)
	preds := filepath.Join(t.TempDir(), "p.jsonl")
	if err := os.WriteFile(preds, []byte(`{"id": "brazil", "sql": "SELECT count(*) FROM Customer WHERE Country = 'Brazil'"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, errs := runWith(t, evalCLI(t, nil), "", "eval", "--db", "demo.sqlite", "--gold", gold, "--predictions", preds)
	if code != 0 || !strings.Contains(stdout, "execution accuracy   100.0% (1 of 1)") {
		t.Errorf("exit %d:\n%s%s", code, stdout, errs)
	}
}
