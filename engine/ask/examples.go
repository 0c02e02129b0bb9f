package ask

import (
	"context"
	"math"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"querent/engine"
	"querent/engine/text"
)

// The prompt's examples are verified answers only (issue 23): an answer
// the analyst approved or corrected, on the same database by its identity
// (engine.DatabaseIdentity), never its path. An answer nobody checked is
// context only in its own conversation (the session's turns): quoted to
// the model as an example, one wrong answer that ran would teach it to be
// wrong again.

// maxExamples is the most verified examples one prompt quotes.
const maxExamples = 3

// minSimilarity is the least similarity (exampleScore) for a verified
// answer to be quoted: below it the example costs tokens and teaches
// nothing about this question.
const minSimilarity = 0.2

// examples returns the verified answers most like the question, for its
// prompt; none without a history (or when it cannot be read: the question
// is answered all the same).
func (a *Asker) examples(ctx context.Context, question string) []engine.HistoryEntry {
	if a.History == nil {
		return nil
	}
	id := engine.IdentityOf(ctx, a.DB)
	hctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	past, err := a.History.Verified(hctx, id, 500)
	if err != nil {
		return nil
	}
	return chooseExamples(question, past, maxExamples)
}

// examplesUsed is what the answer lists of the prompt's examples.
func examplesUsed(es []engine.HistoryEntry) []engine.ExampleUsed {
	out := make([]engine.ExampleUsed, 0, len(es))
	for _, e := range es {
		out = append(out, engine.ExampleUsed{ID: e.ID, Question: e.Question, SQL: e.SQL, VerifiedAs: e.Verified})
	}
	return out
}

// chooseExamples picks the past questions most like this one, at most n:
// by the cosine of their words (folded, stemmed, without the words every
// question has; Chinese by characters and pairs of them), each word weighed
// by how rare it is among the past questions. The same question asked
// before is the best example of all. Ties go to the newer (past is newest
// first).
func chooseExamples(question string, past []engine.HistoryEntry, n int) []engine.HistoryEntry {
	q := exampleWords(question)
	if len(q) == 0 || len(past) == 0 {
		return nil
	}
	docs := make([]map[string]bool, len(past))
	df := map[string]int{}
	for i, e := range past {
		docs[i] = exampleWords(e.Question)
		for w := range docs[i] {
			df[w]++
		}
	}
	weight := func(w string) float64 {
		idf := math.Log(1 + float64(len(past)+1)/float64(df[w]+1))
		return idf * idf
	}
	qNorm := 0.0
	for w := range q {
		qNorm += weight(w)
	}
	type scored struct {
		e     engine.HistoryEntry
		score float64
	}
	var ss []scored
	for i, e := range past {
		shared, dNorm := 0.0, 0.0
		for w := range docs[i] {
			dNorm += weight(w)
			if q[w] {
				shared += weight(w)
			}
		}
		if shared == 0 {
			continue
		}
		if score := shared / math.Sqrt(qNorm*dNorm); score >= minSimilarity {
			ss = append(ss, scored{e, score})
		}
	}
	sort.SliceStable(ss, func(i, j int) bool { return ss[i].score > ss[j].score })
	var out []engine.HistoryEntry
	for i := 0; i < len(ss) && i < n; i++ {
		out = append(out, ss[i].e)
	}
	return out
}

// exampleWords are the words of a question that say what it is about:
// text.Words (folded, stemmed, accents off, each Chinese character a word)
// less the stop words, with each pair of Chinese characters added (a pair
// is the usual Chinese word) unless both are stop words (多少, 哪些).
func exampleWords(s string) map[string]bool {
	ws := text.Words(s)
	out := map[string]bool{}
	for i, w := range ws {
		if !exampleStopWords[w] {
			out[w] = true
		}
		if i > 0 && isCJKWord(w) && isCJKWord(ws[i-1]) && !(exampleStopWords[w] && exampleStopWords[ws[i-1]]) {
			out[ws[i-1]+w] = true
		}
	}
	return out
}

func isCJKWord(w string) bool {
	r, n := utf8.DecodeRuneInString(w)
	return n == len(w) && text.IsCJK(r)
}

// exampleStopWords are the words of any question (English, French,
// Chinese), as text.Words writes them.
var exampleStopWords = map[string]bool{}

func init() {
	for _, w := range text.Words(strings.Join([]string{
		`a an the of in on at by for to from with and or is are was were be been what which who whom whose how many much
		show list give me all each per do does did there their its it this that these those as than then please tell find get`,
		`le la les de des du un une et ou en dans par pour sur est sont quel quelle quels quelles combien qui que quoi avec
		au aux ce cette ces mes nos leur leurs donne donnez montre montrez liste listez tous toutes chaque`,
		`的 是 了 和 在 个 哪 些 什 么 吗 呢 请 列 出 显 示 有 多 少`,
	}, " ")) {
		exampleStopWords[w] = true
	}
}
