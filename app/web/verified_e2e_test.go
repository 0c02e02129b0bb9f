package web_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"querent/engine/ollama/ollamatest"
)

// The verified answers' questions (issue 23) and the scripted model's
// answers: it reads "best-selling" as the longest track, and the analyst
// corrects it.
const (
	verifiedWrong = "SELECT Name FROM Track ORDER BY Milliseconds DESC LIMIT 1"
	verifiedRight = "SELECT t.Name FROM InvoiceLine il JOIN Track t USING (TrackId) GROUP BY t.TrackId ORDER BY sum(il.Quantity) DESC, t.TrackId LIMIT 1"
)

var verifiedAnswers = []struct{ question, sql string }{
	{"how many tracks are there", "SELECT count(*) AS tracks FROM Track"},
	{"which track sold best", verifiedWrong},
	{"which tracks sold the most", verifiedRight},
}

// TestVerifiedEndToEnd drives approve and correct on the answer card in the
// real browser (frontend/e2e/verified.e2e.mjs): an answer approved, one
// whose correction does not compile (refused, the card unchanged), then
// corrected; a later question's prompt quotes both as verified, and its
// card says so. Screenshots: verified-*.png.
func TestVerifiedEndToEnd(t *testing.T) {
	needsBrowser(t, "")
	b, err := os.ReadFile("../../engine/sqlite/demo/Chinook_Sqlite.sqlite")
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "sales.sqlite")
	os.WriteFile(db, b, 0o644)
	fake := ollamatest.New(t)
	fake.Respond(func(req ollamatest.Request) ollamatest.Reply {
		last := ""
		for _, m := range req.Messages {
			if m.Role == "user" {
				last = strings.ToLower(m.Content)
			}
		}
		best, at := -1, -1
		for i, a := range verifiedAnswers {
			if j := strings.LastIndex(last, a.question); j > at {
				best, at = i, j
			}
		}
		if best < 0 {
			return ollamatest.Abstain("", "the scripted model does not know this question")
		}
		return ollamatest.Answer(verifiedAnswers[best].sql, "The answer.")
	})
	url := serveFor(t, fake.URL, db)
	runScript(t, "verified.e2e.mjs", 2*time.Minute, []string{url, reportDir(t), verifiedWrong, verifiedRight})
	reqs := fake.Requests()
	var prompt string
	for _, r := range reqs {
		if m := r.Messages[len(r.Messages)-1].Content; strings.Contains(m, "Which tracks sold the most") {
			prompt = m
			break
		}
	}
	if !strings.Contains(prompt, "verified on this database") || !strings.Contains(prompt, verifiedRight) || strings.Contains(prompt, verifiedWrong) ||
		!strings.Contains(prompt, "Q: How many tracks are there?") {
		t.Errorf("the last question's prompt does not quote the verified answers:\n%s", prompt)
	}
}
