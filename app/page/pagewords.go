package page

import (
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

// pageSaid says s for the page in each of its languages; text the engine
// wrote in English only (words.Plain, which names no flag: every hint that
// names one is said in parts) is said in English, which the page shows
// whatever its language. Nil for nothing to say.
func pageSaid(s words.Sentence) words.Said {
	if s.IsZero() {
		return nil
	}
	if s.IsPlain() {
		return words.Said{"en": words.English(s)}
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

// pageAnswer gives an answer's errors and warnings the page's words; it
// returns the same answer. (Its attempts' messages are the engine's own,
// which name no flag: the hints do.)
func pageAnswer(a *engine.Answer) *engine.Answer {
	if a == nil {
		return nil
	}
	pageDocs(a.Errors)
	a.WarningsSaid = pageWarnings(a.WarningSentences())
	return a
}
