package page

import (
	"regexp"
	"strings"

	"querent/engine"
	"querent/engine/words"
)

// The engine's messages, hints and warnings name the command line's flags
// and commands where they are the way on ("allow more time with
// --timeout"); the page has its Settings and dialogs instead. The engine
// says them in parts (package words), and the page says them with the
// Page face: each flag as its field ("Timeout, in Settings"), each command
// as what does it ("the SQL editor"), in each of its languages. The
// services hand over every language at once (ErrorDoc.MessageSaid and
// HintSaid, the warnings' WarningsSaid), as they already do the chart's
// and the import's reasons: Go does not know which language the page shows
// (it may follow the system's), and a change of language needs no round
// trip. Message and Hint stay the engine's own words, for the page's
// Details.

// pageSpeaker says the engine's words for the page.
var pageSpeaker = words.Speaker{Face: words.Page}

// plainPageWords rewrite what engine/ingest's own code still writes as
// English text, naming flags: only that text (words.Plain) goes through
// them, until it says its hints in parts too (issue 22). engine/sqlite,
// engine/worker and engine/files say theirs in parts, and the worker
// carries an error's words to the parent.
var plainPageWords = []struct {
	re   *regexp.Regexp
	with string
}{
	// Opening files that are not databases (engine/ingest).
	{regexp.MustCompile(`open it directly: querent sql --db .+$`), "open it directly with Open a database"},
	// Importing (engine/ingest).
	{regexp.MustCompile(`needs --encoding utf-16`), "needs the encoding UTF-16 (Encoding, in the import's options)"},
	{regexp.MustCompile(`import it with --encoding windows-1252`), "import it again with the encoding Windows-1252 (Encoding, in the import's options)"},
	{regexp.MustCompile(`use --ragged pad to`), "tick “Accept rows with missing fields” in the import's options to"},
	{regexp.MustCompile(`name one of its sheets with --sheet, or leave --sheet out to import every sheet`), "import every sheet, or name one that is in the workbook"},
	{regexp.MustCompile(`import fewer sheets at a time \(--sheet\)`), "import fewer sheets at a time"},
}

// pageText says text the engine wrote in English only in the page's words
// (plainPageWords).
func pageText(s string) string {
	if !strings.Contains(s, "--") && !strings.Contains(s, "querent ") {
		return s
	}
	for _, w := range plainPageWords {
		s = w.re.ReplaceAllString(s, w.with)
	}
	return s
}

// pageSaid says s for the page in each of its languages; text the engine
// wrote in English only is said in English (the page shows it whatever its
// language), in the page's words. Nil for nothing to say.
func pageSaid(s words.Sentence) words.Said {
	if s.IsZero() {
		return nil
	}
	if s.IsPlain() {
		return words.Said{"en": pageText(words.English(s))}
	}
	return pageSpeaker.Every(s)
}

// pageWarnings says warnings for the page.
func pageWarnings(ws []words.Sentence) []words.Said {
	out := make([]words.Said, len(ws))
	for i, w := range ws {
		out[i] = pageSaid(w)
	}
	return out
}

// pageDoc is an error document with the page's words: its message's key,
// its message and hint in each language (Message and Hint stay as the
// engine wrote them, for the Details).
func pageDoc(d engine.ErrorDoc) engine.ErrorDoc {
	m := d.MessageSentence()
	d.Key = m.MainKey()
	d.MessageSaid = pageSaid(m)
	d.HintSaid = pageSaid(d.HintSentence())
	return d
}

// pageDocs gives each error document the page's words.
func pageDocs(ds []engine.ErrorDoc) []engine.ErrorDoc {
	for i := range ds {
		ds[i] = pageDoc(ds[i])
	}
	return ds
}

// pageAnswer gives an answer's errors and warnings the page's words and
// puts its attempts' messages in them; it returns the same answer.
func pageAnswer(a *engine.Answer) *engine.Answer {
	if a == nil {
		return nil
	}
	pageDocs(a.Errors)
	a.WarningsSaid = pageWarnings(a.WarningSentences())
	for i := range a.Attempts {
		if e := a.Attempts[i].Error; e != nil {
			c := *e
			c.Message = pageText(c.Message)
			a.Attempts[i].Error = &c
		}
	}
	return a
}
