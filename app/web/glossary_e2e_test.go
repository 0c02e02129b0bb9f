package web_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"querent/engine/glossary"
	"querent/engine/ollama/ollamatest"
	"querent/engine/sqlite"
	"querent/internal/wiring"
)

// glossaryQuestions are the questions of the glossary's browser test that
// use its term, in each language.
var glossaryQuestions = map[string]string{"en": "How many big invoices are there?", "fr": "Combien y a-t-il de grosses factures ?", "zh": "有多少张大额发票？"}

// TestGlossaryEndToEnd drives the glossary panel in the real browser
// (frontend/e2e/glossary.e2e.mjs), in English, French and Chinese, each page
// on its own copy of Chinook whose glossary holds a stale entry (its SQL
// names a column Chinook does not have): the stale entry flagged, a term
// over a wrong column refused with the closest one, then saved, edited,
// used by a question in the plural and removed. The prompts say the term
// only for the question that uses it, and never the stale entry.
// Screenshots: glossary-*-LANG.png.
func TestGlossaryEndToEnd(t *testing.T) {
	needsBrowser(t, "")
	fake := ollamatest.New(t)
	fake.Respond(func(req ollamatest.Request) ollamatest.Reply {
		if strings.Contains(req.Messages[len(req.Messages)-1].Content, "Total > 20") {
			return ollamatest.Answer("SELECT count(*) AS n FROM Invoice WHERE Total > 20", "Counts the invoices over 20.")
		}
		return ollamatest.Answer("SELECT count(*) AS tracks FROM Track", "Counts the tracks.")
	})
	args := []string{reportDir(t)}
	for i, lang := range []string{"en", "fr", "zh"} {
		dir := t.TempDir()
		db := chinookCopy(t, dir, i+1)
		seedStale(t, db)
		args = append(args, lang+"="+serveLang(t, fake.URL, db, filepath.Join(dir, "data"), lang))
	}
	runScript(t, "glossary.e2e.mjs", 4*time.Minute, args)
	asked := map[string]bool{}
	for _, r := range fake.Requests() {
		m := r.Messages[len(r.Messages)-1].Content
		if strings.Contains(m, "Discount") {
			t.Errorf("a prompt says the stale entry:\n%s", m)
		}
		for lang, q := range glossaryQuestions {
			if strings.Contains(m, q) {
				asked[lang] = true
				if !strings.Contains(m, "Total > 20") {
					t.Errorf("%s: the prompt of %q does not say the glossary's term:\n%s", lang, q, m)
				}
			}
		}
	}
	for lang := range glossaryQuestions {
		if !asked[lang] {
			t.Errorf("%s: the question that uses the term never reached the model", lang)
		}
	}
	for _, r := range fake.Requests() {
		m := r.Messages[len(r.Messages)-1].Content
		for _, other := range []string{"How many tracks are there?", "Combien de morceaux y a-t-il ?", "有多少首曲目？"} {
			if strings.Contains(m, other) && strings.Contains(m, "Total > 20") {
				t.Errorf("the prompt of %q says the term it does not use:\n%s", other, m)
			}
		}
	}
}

// chinookCopy writes a copy of the demo database into dir whose
// user_version is n, so that each copy is a database of its own identity
// (its sha256) with its own verified answers and glossary.
func chinookCopy(t *testing.T, dir string, n int) string {
	t.Helper()
	b, err := os.ReadFile("../../engine/sqlite/demo/Chinook_Sqlite.sqlite")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "sales.sqlite")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	conn, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Exec(fmt.Sprintf("PRAGMA user_version = %d", n)); err != nil {
		t.Fatal(err)
	}
	return path
}

// seedStale saves, in the glossary the page reads, an entry of path's
// database whose SQL names a column the database does not have (as if the
// column had been dropped since it was saved).
func seedStale(t *testing.T, path string) {
	t.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	st, closeG, err := wiring.OpenGlossary(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer closeG()
	e := glossary.Entry{Term: "discounted line", Meaning: "an invoice line sold at a discount", SQL: "Discount > 0", Kind: glossary.KindCondition,
		Tables: []string{"InvoiceLine"}, Fingerprint: "dropped", Updated: time.Now().UTC()}
	if err := st.Save(ctx, glossary.RefOf(ctx, db), e); err != nil {
		t.Fatal(err)
	}
}
