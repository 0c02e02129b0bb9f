package ask

import (
	"strings"
	"unicode"

	"querent/engine"
	"querent/engine/text"
)

// The follow-up choices of Options.FollowUp.
const (
	// FollowUpAuto (or "") follows up on the session's earlier questions
	// only when the question reads as a follow-up (ReadsAsFollowUp).
	FollowUpAuto = "auto"
	// FollowUpYes always follows up (the analyst said so: a follow-up
	// chip, --follow-up, the sub-agent input's follow_up: true).
	FollowUpYes = "yes"
	// FollowUpNo never does: the question starts a new thread of context.
	FollowUpNo = "no"
)

// FollowUpOf is a request's follow_up (the sub-agent input, MCP's ask) as
// a choice: true FollowUpYes, false FollowUpNo, absent otherwise.
func FollowUpOf(v *bool, otherwise string) string {
	switch {
	case v == nil:
		return otherwise
	case *v:
		return FollowUpYes
	}
	return FollowUpNo
}

// contextTurns is how many earlier questions a follow-up's prompt shows.
const contextTurns = 3

// followsUp reports whether question is to be read with the session's
// earlier questions, by choice (yes, no) or by how it reads (auto).
func followsUp(choice, question string) bool {
	switch choice {
	case FollowUpYes:
		return true
	case FollowUpNo:
		return false
	}
	return ReadsAsFollowUp(question)
}

// startContext applies the follow-up choice to the session before a
// question: a question that does not follow up starts its context anew
// (the earlier turns are dropped, so that neither this question's prompt
// nor its own follow-ups carry them). It returns the turns the question's
// prompt shows, oldest first.
func startContext(session *engine.Session, choice, question string) []engine.Turn {
	if session == nil || len(session.Turns) == 0 {
		return []engine.Turn{}
	}
	if !followsUp(choice, question) {
		session.Turns = nil
		return []engine.Turn{}
	}
	turns := session.Turns
	if len(turns) > contextTurns {
		turns = turns[len(turns)-contextTurns:]
	}
	return append([]engine.Turn{}, turns...)
}

// followOpeners start a question that continues the previous one: "and
// for 2012?", "what about Europe?", "et pour la France ?", "same but by
// month", "only the rock ones".
var followOpeners = []string{
	"and", "but", "also", "now", "then", "same", "only", "instead", "what about", "how about", "or",
	"et", "mais", "aussi", "maintenant", "puis", "pareil", "meme", "seulement", "uniquement", "plutot", "idem",
}

// shortOpeners start a short fragment that refines the previous question
// ("by month", "sorted by total", "sans les taxes"); a longer sentence
// that starts with them stands alone ("For each genre, count the tracks").
var shortOpeners = []string{
	"by", "per", "for", "in", "without", "excluding", "including", "except", "sorted", "sort", "grouped", "split",
	"par", "pour", "en", "sans", "hors", "sauf", "trie", "tries", "triee", "triees", "classe", "classes",
}

// shortFragment is the most words a fragment has.
const shortFragment = 4

// followWords point back at an earlier answer wherever they stand: "of
// those", "among them", "the same", "ces clients", "parmi eux", "le même".
var followWords = map[string]bool{
	"those": true, "these": true, "them": true, "they": true, "it": true, "previous": true, "above": true,
	"earlier": true, "same": true, "instead": true, "ones": true,
	"ceux": true, "celles": true, "ceci": true, "cela": true, "ca": true, "eux": true, "elles": true, "ils": true,
	"ces": true, "parmi": true, "precedent": true, "precedente": true, "dessus": true, "meme": true, "memes": true,
	"plutot": true,
}

// followPhrases are several words that point back: "which of", "of
// them", "that list", "la même chose".
var followPhrases = []string{
	"which of", "of them", "that list", "this list", "that one", "the result", "the results", "those results",
	"break it down", "break that down", "same question", "same thing", "la meme", "le meme", "meme chose",
	"lesquels", "lesquelles", "le resultat", "les resultats", "cette liste",
}

// zhFollow mark a Chinese follow-up: pronouns and words pointing back
// (它们, 这些, 其中, 上面, 刚才, 同样), openers (那, 那么, 还有, 再, 另外,
// 只, 按), and a closing 呢 ("2012年呢？").
var (
	zhFollowWords   = []string{"它们", "它", "他们", "她们", "这些", "那些", "其中", "上面", "上述", "刚才", "之前", "同样", "这个结果", "该结果", "改为", "换成"}
	zhFollowOpeners = []string{"那么", "那", "还有", "再", "另外", "只", "按", "并且", "而且", "如果", "换成", "改成"}
)

// ReadsAsFollowUp reports whether a question reads as continuing the
// previous one rather than as a question of its own: it points back
// ("those", "of them", "ces clients", "其中"), opens like a continuation
// ("and for 2012?", "what about Europe?", "et pour la France ?", "那2012年呢？"),
// or is a fragment too short to stand alone ("by month", "only 2012").
// "Top 10 customers" after "Which artist has the most albums?" does not.
func ReadsAsFollowUp(question string) bool {
	q := strings.TrimSpace(question)
	if q == "" {
		return false
	}
	if hasCJK(q) {
		return readsAsZhFollowUp(q)
	}
	words := foldWords(q)
	if len(words) == 0 {
		return false
	}
	joined := " " + strings.Join(words, " ") + " "
	for _, o := range followOpeners {
		if strings.HasPrefix(joined, " "+o+" ") {
			return true
		}
	}
	if len(words) <= shortFragment {
		for _, o := range shortOpeners {
			if words[0] == o {
				return true
			}
		}
	}
	for _, w := range words {
		if followWords[w] {
			return true
		}
	}
	for _, p := range followPhrases {
		if strings.Contains(joined, " "+p+" ") {
			return true
		}
	}
	// A fragment: one word ("Europe?", "2012?"), or two with a number
	// ("2012 only", "top 5") and no question word.
	if questionWord[words[0]] {
		return false
	}
	return len(words) == 1 || len(words) == 2 && strings.IndexFunc(q, unicode.IsDigit) >= 0
}

// questionWord open a question that stands alone, however short ("How
// many tracks?", "Combien de clients ?").
var questionWord = map[string]bool{
	"how": true, "what": true, "which": true, "who": true, "when": true, "where": true, "why": true, "list": true, "show": true,
	"count": true, "top": true, "total": true, "combien": true, "quel": true, "quels": true, "quelle": true, "quelles": true,
	"qui": true, "quand": true, "ou": true, "pourquoi": true, "liste": true, "montre": true, "nombre": true,
}

func readsAsZhFollowUp(q string) bool {
	for _, w := range zhFollowWords {
		if strings.Contains(q, w) {
			return true
		}
	}
	for _, o := range zhFollowOpeners {
		if strings.HasPrefix(q, o) {
			return true
		}
	}
	trimmed := strings.TrimRight(q, "？?。.！! ")
	return strings.HasSuffix(trimmed, "呢")
}

// foldWords are q's words, lower-cased and without accents; an apostrophe
// splits ("l'année" → "l", "annee").
func foldWords(q string) []string {
	raw := strings.FieldsFunc(q, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.Is(unicode.Mn, r) })
	out := raw[:0]
	for _, w := range raw {
		if f := text.Fold(w); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func hasCJK(s string) bool {
	for _, r := range s {
		if text.IsCJK(r) {
			return true
		}
	}
	return false
}
