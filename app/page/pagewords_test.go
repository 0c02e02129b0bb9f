package page

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"querent/engine"
)

// TestPageWords: the hints the engine writes for the command line reach
// the page in its own words, naming no flag and no querent command.
func TestPageWords(t *testing.T) {
	for _, h := range []string{
		"make it cheaper (filter with WHERE, join on key columns, aggregate before joining, add LIMIT) or allow more time with --timeout",
		"allow more time (--timeout) or ask for less",
		"rephrase the question (name the tables or columns you mean), try another model with --model, or write the SQL yourself with querent sql",
		"try again, or try another model (--model)",
		"ask about what the tables hold (querent schema lists them)",
		"check the column's name in the schema (querent schema)",
		"choose another file; to build a database from CSV or XLSX files, use: querent import --db new.sqlite data.csv",
		"to query a spreadsheet, import it: querent import --db new.sqlite 'my book.xlsx'",
		"save it as .xlsx or .csv in your spreadsheet program, then import it with querent import",
		"to query CSV data, import it into a database: querent import --db new.sqlite data.csv",
		"import a CSV or XLSX file; a UTF-16 file without a byte-order mark needs --encoding utf-16",
		"fix the row, or use --ragged pad to fill short rows with empty (NULL) values",
		"to replace it anyway, use --replace-user-table; to keep it, use --table NAME to import into a new table",
		"choose another table name with --table",
		"import into a new database file instead, such as --db /tmp/x-2.sqlite",
		"create it first, or choose another --db path",
		"run the import again to add to it, or choose another --db",
		"check the address given by --ollama or OLLAMA_HOST; direct SQL (querent sql) works without Ollama",
		"start it: open the Ollama app, or run `ollama serve` in a terminal; direct SQL (querent sql) works without it; if Ollama runs elsewhere, check the address given by --ollama or OLLAMA_HOST",
		"use --force to replace it, or choose another file",
		"the export stopped at the row limit: 10 rows were written (--max-rows)",
		"open it directly: querent sql --db /tmp/a.sqlite",
	} {
		got := pageText(h)
		if strings.Contains(got, "--") || strings.Contains(got, "querent ") {
			t.Errorf("pageText(%q)\n = %q: still names the command line", h, got)
		}
	}
	if got := pageText("no such column: x--y"); got != "no such column: x--y" {
		t.Errorf("a message that names no flag changed: %q", got)
	}
}

// TestPageWordsReachThePage: an error the services return and an answer's
// errors carry the page's words.
func TestPageWordsReachThePage(t *testing.T) {
	csv := filepath.Join(t.TempDir(), "data.csv")
	os.WriteFile(csv, []byte("a,b\n1,2\n"), 0o644)
	err := engine.Errorf(engine.CodeDatabase, "%s: this is not a SQLite database", csv).WithHint("to query CSV data, import it into a database: querent import --db new.sqlite %s", csv)
	d := ErrorDoc(err)
	if strings.Contains(d.Hint, "querent import") || !strings.Contains(d.Hint, "Import CSV or Excel") {
		t.Errorf("ErrorDoc hint %q", d.Hint)
	}
	ans := engine.NewAnswer("SELECT 1")
	ans.AddError(engine.Errorf(engine.CodeTimeout, "the query ran past its 1s timeout").WithHint("allow more time with --timeout"))
	pageAnswer(ans)
	if h := ans.Errors[0].Hint; strings.Contains(h, "--timeout") || !strings.Contains(h, "Settings") {
		t.Errorf("answer hint %q", h)
	}
}
