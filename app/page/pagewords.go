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

// plainPageWords rewrite what engine/sqlite, engine/worker and
// engine/files still write as English text, naming flags: only that text
// (words.Plain) goes through them, until those packages say their hints in
// parts too (issue 22), as engine/ingest does. The worker carries every
// error's hint as text, the deadline's included.
var plainPageWords = []struct {
	re   *regexp.Regexp
	with string
}{
	// Time (engine/sqlite, engine/worker).
	{regexp.MustCompile(`allow more time with --timeout`), "allow more time (Timeout, in Settings)"},
	{regexp.MustCompile(`allow more time \(--timeout\)`), "allow more time (Timeout, in Settings)"},
	// The schema (engine/sqlite).
	{regexp.MustCompile(`in the schema \(querent schema\)`), "in the sidebar"},
	// Opening files that are not databases (engine/sqlite).
	{regexp.MustCompile(`use: querent import --db \S+ \S+`), "use Import CSV or Excel on the start screen"},
	{regexp.MustCompile(`import it: querent import --db \S+ .+$`), "import it with Import CSV or Excel on the start screen"},
	{regexp.MustCompile(`import it into a database: querent import --db \S+ .+$`), "import it with Import CSV or Excel on the start screen"},
	{regexp.MustCompile(`then import it with querent import`), "then import it with Import CSV or Excel"},
	// Importing (engine/sqlite).
	{regexp.MustCompile(`to replace it anyway, use --replace-user-table; to keep it, use --table NAME to import into a new table`),
		"to keep it, import under another table name (Table name, in the import's options)"},
	{regexp.MustCompile(`: --replace replaces only tables Querent imported`), ": Replace replaces only tables Querent imported"},
	{regexp.MustCompile(`choose another table name with --table`), "choose another table name (Table name, in the import's options)"},
	{regexp.MustCompile(`such as --db `), "such as "},
	{regexp.MustCompile(`choose another --db path`), "choose another place for the new database"},
	{regexp.MustCompile(`choose a file you may write with --db`), "choose a place you may write for the new database"},
	{regexp.MustCompile(`or choose another --db`), "or choose another name for the new database"},
	{regexp.MustCompile(`write to another file with --db`), "choose another name for the new database"},
	{regexp.MustCompile(`give --db a file name, such as`), "give the new database a file name, such as"},
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
