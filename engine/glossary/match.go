package glossary

import (
	"sort"

	"querent/engine/text"
)

// Match returns the entries whose term or a synonym the question uses, in
// the order of their first use in it. Words are compared as the value
// hints compare them (engine/text's Words): folded (case and accents
// ignored: "Clientes activos" is "clientes ACTIVOS"), stemmed (plural and
// singular are one: "active customers" uses "active customer"), split at
// anything that is not a letter or digit (French elisions: "l'année
// fiscale" uses "année fiscale"), each Chinese character a word (Chinese
// is written without spaces: "活跃客户有多少" uses "活跃客户"). A term
// matches where all its words come in a row in the question.
func Match(question string, entries []Entry) []Entry {
	q := text.Words(question)
	if len(q) == 0 {
		return nil
	}
	type found struct {
		e   Entry
		pos int
	}
	var out []found
	for _, e := range entries {
		best := -1
		for _, w := range e.Words() {
			if p := indexWords(q, text.Words(w)); p >= 0 && (best < 0 || p < best) {
				best = p
			}
		}
		if best >= 0 {
			out = append(out, found{e, best})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].pos < out[j].pos })
	es := make([]Entry, len(out))
	for i, f := range out {
		es[i] = f.e
	}
	return es
}

// indexWords is where the words of term first come in a row in q, or -1.
func indexWords(q, term []string) int {
	if len(term) == 0 || len(term) > len(q) {
		return -1
	}
	for i := 0; i+len(term) <= len(q); i++ {
		ok := true
		for j, w := range term {
			if q[i+j] != w {
				ok = false
				break
			}
		}
		if ok {
			return i
		}
	}
	return -1
}
