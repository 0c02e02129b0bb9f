package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"querent/engine"
	"querent/engine/ollama/ollamatest"
	"querent/engine/sensitive"
)

// openMarked opens like the binary does (internal/wiring): with the marks
// of Querent's data folder.
func openMarked(ctx context.Context, path string, o engine.OpenOptions) (engine.Database, error) {
	db, err := open(ctx, path, o)
	return sensitive.WithMarks(ctx, db, err)
}

// TestSensitiveCommands reproduces issue 28 on the command line: marking
// (a wrong name gets the closest ones), the analyst's sql sees the values,
// marked; the sub-agent contract (ask --input) gets them masked, a filter
// over them included; an export masks them unless --include-sensitive; the
// database is never changed and nothing is written beside it.
func TestSensitiveCommands(t *testing.T) {
	t.Setenv("QUERENT_DATA_DIR", t.TempDir())
	fake := ollamatest.New(t)
	fake.Respond(func(ollamatest.Request) ollamatest.Reply {
		return ollamatest.Answer("SELECT FirstName, upper(Email) AS address FROM Customer ORDER BY CustomerId LIMIT 2", "Two customers.")
	})
	c := askCLI(t, fake)
	c.Open = openMarked
	db := chinookCopy(t)
	before := fileSum(t, db)

	code, _, errs := runWith(t, c, "", "sensitive", "add", "--db", db, "Customer.Emial")
	if code != 1 || !strings.Contains(errs, "did you mean Email?") {
		t.Fatalf("a wrong column: exit %d %s", code, errs)
	}
	code, out, errs := runWith(t, c, "", "sensitive", "add", "--db", db, "customer.email", "--format", "json")
	var doc struct {
		Sensitive []sensitive.Mark   `json:"sensitive"`
		Likely    []sensitive.Likely `json:"likely"`
		Added     []string           `json:"added"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &doc) != nil || len(doc.Sensitive) != 1 || doc.Added[0] != "Customer.Email" {
		t.Fatalf("add: exit %d %s %s", code, out, errs)
	}
	for _, l := range doc.Likely {
		if l.Name() == "Customer.Email" {
			t.Errorf("a marked column is offered again")
		}
	}
	if len(doc.Likely) < 4 {
		t.Errorf("likely: %+v", doc.Likely)
	}
	code, out, _ = runWith(t, c, "", "sensitive", "list", "--db", db)
	if code != 0 || !strings.Contains(out, "Sensitive: Customer.Email") || !strings.Contains(out, "Employee.Email: email addresses") ||
		!strings.Contains(out, "querent sensitive add --db") {
		t.Errorf("list: %s", out)
	}

	// The analyst sees the values, marked.
	code, out, errs = runWith(t, c, "", "sql", "--db", db, "SELECT FirstName, Email, lower(Email) FROM Customer WHERE CustomerId = 1")
	if code != 0 || !strings.Contains(out, "luisg@embraer.com.br") || !strings.Contains(errs, "sensitive columns, shown to you only") {
		t.Errorf("sql: %s %s", out, errs)
	}
	code, out, _ = runWith(t, c, "", "sql", "--db", db, "--format", "json", "SELECT Email FROM Customer WHERE CustomerId = 1")
	if code != 0 || !strings.Contains(out, `"sensitive": true`) || !strings.Contains(out, "luisg@embraer.com.br") || !strings.Contains(out, `"masked_columns": []`) {
		t.Errorf("sql json: %s", out)
	}

	// An agent gets them masked, from the model's SQL and from its own.
	req := `{"question": "Two customers and their addresses", "connection": {"db_type": "sqlite", "host": "` + db + `"}}`
	code, out, errs = runWith(t, c, req, "ask", "--input", "-")
	if code != 0 || strings.Contains(strings.ToLower(out), "luisg@") || !strings.Contains(out, `"masked_columns": [`) ||
		!strings.Contains(out, engine.MaskText) || !strings.Contains(out, `"FirstName": "Luís"`) {
		t.Errorf("ask --input: exit %d %s %s", code, out, errs)
	}
	req = `{"question": "SELECT CustomerId FROM Customer WHERE Email LIKE 'luisg%'", "connection": {"host": "` + db + `"}}`
	code, out, _ = runWith(t, c, req, "ask", "--input", "-")
	if code != 0 || !strings.Contains(out, `"row_count": 0`) {
		t.Errorf("an agent's filter over the column: %s", out)
	}
	for _, r := range fake.Requests() {
		b, _ := json.Marshal(r.Messages)
		if strings.Contains(string(b), "luisg@embraer.com.br") {
			t.Errorf("the model was sent an email")
		}
	}

	// Exports: masked unless asked.
	dir := t.TempDir()
	masked, full := filepath.Join(dir, "masked.csv"), filepath.Join(dir, "full.csv")
	code, _, errs = runWith(t, c, "", "export", "--db", db, "--sql", "SELECT FirstName, Email, substr(Email, 1, 5) AS s FROM Customer WHERE CustomerId = 1", "--out", masked)
	b, _ := os.ReadFile(masked)
	if code != 0 || string(b) != "FirstName,Email,s\r\nLuís,[masked],[masked]\r\n" || !strings.Contains(errs, "--include-sensitive") {
		t.Errorf("masked export: exit %d %q %s", code, b, errs)
	}
	code, _, _ = runWith(t, c, "", "export", "--db", db, "--sql", "SELECT FirstName, Email FROM Customer WHERE CustomerId = 1", "--out", full, "--include-sensitive")
	b, _ = os.ReadFile(full)
	if code != 0 || string(b) != "FirstName,Email\r\nLuís,luisg@embraer.com.br\r\n" {
		t.Errorf("export with --include-sensitive: %q", b)
	}

	code, out, _ = runWith(t, c, "", "sensitive", "remove", "--db", db, "Customer.Email")
	if code != 0 || !strings.Contains(out, "No column of this database is marked sensitive.") {
		t.Errorf("remove: %s", out)
	}
	if fileSum(t, db) != before {
		t.Error("the database changed")
	}
	if ents, _ := os.ReadDir(filepath.Dir(db)); len(ents) != 1 {
		t.Errorf("files beside the database: %v", ents)
	}
}
