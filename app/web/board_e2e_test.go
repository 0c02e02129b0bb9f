package web_test

import (
	"database/sql"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"querent/engine/ollama/ollamatest"
)

// The board's questions (frontend/e2e/board.e2e.mjs): sales by country and
// tracks per genre, in each language.
var boardQuestions = map[string][2]string{
	"en": {"Sales by country", "Tracks per genre"},
	"fr": {"Ventes par pays", "Titres par genre"},
	"zh": {"各国销售额", "各流派的曲目数"},
}

const (
	boardSales  = "SELECT BillingCountry AS country, sum(Total) AS sales FROM Invoice GROUP BY BillingCountry ORDER BY country"
	boardGenres = "SELECT g.Name AS genre, count(*) AS tracks FROM Genre g JOIN Track t USING (GenreId) GROUP BY g.GenreId ORDER BY tracks DESC LIMIT 10"
)

// TestBoardEndToEnd drives the board in the real browser, in English,
// French and Chinese, each on its own copy of Chinook: two answers pinned;
// the sales card's grid filtered and sorted and exported as this view (the
// CSV's rows are the grid's, in its order); a reload, the board shows them;
// another program adds two invoices to the copy (the script asks this
// test's change server), "Re-run all" says what changed on the sales card
// and that the genres did not; a note saved and still there after a
// reload; the two cards side by side; one card unpinned. English also at 900×700
// and 1920×1080. The boards are in each server's data folder.
// Screenshots: board-*-LANG.png.
func TestBoardEndToEnd(t *testing.T) {
	needsBrowser(t, "")
	fake := ollamatest.New(t)
	fake.Respond(func(req ollamatest.Request) ollamatest.Reply {
		last := req.Messages[len(req.Messages)-1].Content
		for _, q := range boardQuestions {
			if strings.HasSuffix(strings.TrimSpace(last), q[0]) {
				return ollamatest.Answer(boardSales, "Sums the invoices per country.")
			}
		}
		return ollamatest.Answer(boardGenres, "Counts the tracks per genre.")
	})
	demo, err := os.ReadFile("../../engine/sqlite/demo/Chinook_Sqlite.sqlite")
	if err != nil {
		t.Fatal(err)
	}
	paths, dirs := map[string]string{}, map[string]string{}
	args := []string{reportDir(t), ""}
	for _, lang := range []string{"en", "fr", "zh"} {
		paths[lang] = filepath.Join(t.TempDir(), "chinook-"+lang+".db")
		if err := os.WriteFile(paths[lang], demo, 0o644); err != nil {
			t.Fatal(err)
		}
		dirs[lang] = t.TempDir()
		args = append(args, lang+"="+serveLang(t, fake.URL, paths[lang], dirs[lang], lang))
	}
	// The change server: the script asks it to change a language's copy,
	// as another program writing to the file would.
	changes := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path, ok := paths[r.URL.Query().Get("lang")]
		if !ok || r.Method != http.MethodPost {
			http.Error(w, "no such copy", http.StatusBadRequest)
			return
		}
		db, err := sql.Open("sqlite", path)
		if err == nil {
			_, err = db.Exec("INSERT INTO Invoice(InvoiceId, CustomerId, InvoiceDate, BillingCountry, Total) VALUES (1000, 1, '2026-01-01', 'USA', 100), (1001, 1, '2026-01-02', 'Iceland', 5)")
			db.Close()
		}
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(changes.Close)
	args[1] = changes.URL
	runScript(t, "board.e2e.mjs", 4*time.Minute, args)

	for lang, dir := range dirs {
		files, _ := filepath.Glob(filepath.Join(dir, "boards", "*.json"))
		if len(files) != 1 {
			t.Fatalf("%s: the data folder's boards: %v", lang, files)
		}
		b, err := os.ReadFile(files[0])
		if err != nil {
			t.Fatal(err)
		}
		var kept struct {
			Pins []struct {
				Question, SQL, Note string
			}
		}
		if err := json.Unmarshal(b, &kept); err != nil {
			t.Fatal(err)
		}
		if len(kept.Pins) != 1 || kept.Pins[0].Question != boardQuestions[lang][0] || kept.Pins[0].SQL != boardSales || kept.Pins[0].Note == "" {
			t.Errorf("%s: the board kept %+v", lang, kept.Pins)
		}
	}
}
