package web_test

import (
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

// verifiedAnswers are the scripted model's answers, by the question (in
// English, French and Chinese) that the last message ends with.
var verifiedAnswers = []struct {
	questions []string
	sql       string
}{
	{[]string{"how many tracks are there", "combien de morceaux y a-t-il", "有多少首曲目"}, "SELECT count(*) AS tracks FROM Track"},
	{[]string{"which track sold best", "quel morceau s’est le mieux vendu", "哪首曲目卖得最好"}, verifiedWrong},
	{[]string{"which tracks sold the most", "quels morceaux se sont le mieux vendus", "哪些曲目卖得最好"}, verifiedRight},
}

// verifiedLike are the like questions, whose prompts must quote the
// verified answers.
var verifiedLike = map[string]string{"en": "Which tracks sold the most", "fr": "Quels morceaux se sont le mieux vendus", "zh": "哪些曲目卖得最好"}

// TestVerifiedEndToEnd drives approve and correct on the answer card in the
// real browser (frontend/e2e/verified.e2e.mjs), in English, French and
// Chinese, each page on its own copy of Chinook: an answer approved, one
// whose correction does not compile (refused, the card unchanged), then
// corrected; a later question's prompt quotes both as verified, and its
// card says so. Screenshots: verified-*-LANG.png.
func TestVerifiedEndToEnd(t *testing.T) {
	needsBrowser(t, "")
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
			for _, q := range a.questions {
				if j := strings.LastIndex(last, q); j > at {
					best, at = i, j
				}
			}
		}
		if best < 0 {
			return ollamatest.Abstain("", "the scripted model does not know this question")
		}
		return ollamatest.Answer(verifiedAnswers[best].sql, "The answer.")
	})
	args := []string{reportDir(t), verifiedWrong, verifiedRight}
	for i, lang := range []string{"en", "fr", "zh"} {
		dir := t.TempDir()
		db := chinookCopy(t, dir, i+1)
		args = append(args, lang+"="+serveLang(t, fake.URL, db, filepath.Join(dir, "data"), lang))
	}
	runScript(t, "verified.e2e.mjs", 4*time.Minute, args)
	reqs := fake.Requests()
	for lang, like := range verifiedLike {
		var prompt string
		for _, r := range reqs {
			if m := r.Messages[len(r.Messages)-1].Content; strings.Contains(m, like) {
				prompt = m
				break
			}
		}
		if !strings.Contains(prompt, "verified on this database") || !strings.Contains(prompt, verifiedRight) || strings.Contains(prompt, verifiedWrong) {
			t.Errorf("%s: the like question's prompt does not quote the corrected answer as verified (or quotes the wrong one):\n%s", lang, prompt)
		}
		if lang == "en" && !strings.Contains(prompt, "Q: How many tracks are there?") {
			t.Errorf("en: the approved answer is not quoted:\n%s", prompt)
		}
	}
}
