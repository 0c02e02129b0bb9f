package web_test

import (
	"strings"
	"testing"
	"time"

	"querent/engine/ollama/ollamatest"
)

// The thread's questions (frontend/e2e/thread.e2e.mjs): a question, an
// unrelated one and a follow-up, in each language.
var threadQuestions = map[string][3]string{
	"en": {"Which artist has the most albums?", "Top 10 customers", "and for 2012?"},
	"fr": {"Quel artiste a le plus d’albums ?", "Les 10 meilleurs clients", "Et pour 2012 ?"},
	"zh": {"哪位艺术家的专辑最多？", "前 10 名客户", "那2012年呢？"},
}

// TestThreadEndToEnd drives the thread in the real browser, in English,
// French and Chinese: an unrelated question is read on its own, a follow-up
// with the question before it (its card and the ask box say which); a
// reload restores the thread and its context; a question is dropped from
// the context; "New conversation" clears the thread and "Undo" restores it.
// The prompts: the unrelated question's carries no earlier question, the
// follow-up's carries the one it follows. Screenshots: thread-*-LANG.png.
func TestThreadEndToEnd(t *testing.T) {
	needsBrowser(t, "")
	fake := ollamatest.New(t)
	fake.Respond(func(ollamatest.Request) ollamatest.Reply {
		return ollamatest.Answer("SELECT count(*) AS n FROM Artist", "Counts the artists.")
	})
	args := []string{reportDir(t)}
	for _, lang := range []string{"en", "fr", "zh"} {
		args = append(args, lang+"="+serveDemo(t, fake.URL, lang))
	}
	runScript(t, "thread.e2e.mjs", 4*time.Minute, args)
	for lang, q := range threadQuestions {
		var unrelated, follow string
		for _, r := range fake.Requests() {
			m := r.Messages[len(r.Messages)-1].Content
			switch {
			case strings.HasSuffix(strings.TrimSpace(m), q[1]) && unrelated == "":
				unrelated = m
			case strings.HasSuffix(strings.TrimSpace(m), q[2]) && follow == "":
				follow = m
			}
		}
		if unrelated == "" || strings.Contains(unrelated, q[0]) {
			t.Errorf("%s: the unrelated question's prompt carries the one before (or never came):\n%s", lang, unrelated)
		}
		if follow == "" || !strings.Contains(follow, q[1]) || strings.Contains(follow, q[0]) {
			t.Errorf("%s: the follow-up's prompt does not carry the question it follows, or carries an older one:\n%s", lang, follow)
		}
	}
}
