package schemactx

// Lexical relevance: BM25 over each table's names and values, with a few
// English words of analytics expanded to the words schemas use.

import (
	"math"
	"strings"

	"querent/engine"
	"querent/engine/text"
)

// BM25 parameters, the usual ones.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// Field weights: a word of the table's name counts most, then column names,
// then distinct values, then sample values.
const (
	weightTable  = 3.0
	weightColumn = 2.0
	weightValue  = 1.0
	weightSample = 0.5
)

// lexicalScores returns the BM25 score of each table for question.
func lexicalScores(tables []*engine.Table, question string) []float64 {
	n := len(tables)
	score := make([]float64, n)
	terms := queryTerms(question)
	if len(terms) == 0 {
		return score
	}
	tfs := make([]map[string]float64, n)
	lens := make([]float64, n)
	total := 0.0
	for i, t := range tables {
		tf := map[string]float64{}
		add := func(word string, w float64) {
			tf[word] += w
			lens[i] += w
		}
		for _, w := range text.IdentWords(t.Name) {
			add(w, weightTable)
		}
		for _, c := range t.Columns {
			for _, w := range text.IdentWords(c.Name) {
				add(w, weightColumn)
			}
			if c.OriginalName != nil {
				for _, w := range text.Words(*c.OriginalName) {
					add(w, weightColumn)
				}
			}
		}
		for _, vals := range t.DistinctValues.Values {
			for _, v := range vals {
				if s, ok := v.(string); ok {
					for _, w := range text.Words(s) {
						add(w, weightValue)
					}
				}
			}
		}
		for _, row := range t.Samples.Values {
			for _, v := range row {
				if s, ok := v.(string); ok {
					for _, w := range text.Words(s) {
						add(w, weightSample)
					}
				}
			}
		}
		tfs[i] = tf
		total += lens[i]
	}
	avg := total / float64(n)
	if avg == 0 {
		avg = 1
	}
	for term, qw := range terms {
		df := 0
		for i := range tables {
			if tfs[i][term] > 0 {
				df++
			}
		}
		if df == 0 {
			continue
		}
		idf := math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
		for i := range tables {
			tf := tfs[i][term]
			if tf == 0 {
				continue
			}
			score[i] += qw * idf * tf * (bm25K1 + 1) / (tf + bm25K1*(1-bm25B+bm25B*lens[i]/avg))
		}
	}
	// A question that names a table whole ("tracks" → Track, but not
	// PlaylistTrack) points at it more than any column can.
	for i, t := range tables {
		w := 1.0
		words := text.IdentWords(t.Name)
		for _, tw := range words {
			w = math.Min(w, terms[tw])
		}
		if len(words) > 0 {
			score[i] += wholeNameBonus * w
		}
	}
	return score
}

// wholeNameBonus is added to a table whose every name word is in the
// question (times the words' weight: less for a synonym).
const wholeNameBonus = 2.0

// synonymWeight is the weight of a query term added by synonyms.
const synonymWeight = 0.4

// queryTerms returns the question's stemmed words (weight 1) and their
// synonyms (synonymWeight), stop words left out.
func queryTerms(question string) map[string]float64 {
	terms := map[string]float64{}
	var words []string
	words = append(words, text.IdentWords(question)...)
	words = append(words, text.Words(question)...) // "InvoiceLine" as one word too
	for _, w := range words {
		if !stopWords[w] {
			terms[w] = 1
		}
	}
	for _, w := range words {
		if stopWords[w] {
			continue
		}
		for _, syn := range synonyms[w] {
			if terms[syn] < synonymWeight {
				terms[syn] = synonymWeight
			}
		}
	}
	return terms
}

// synonyms expands a few English words of analytics questions to the
// words schemas use for them (stemmed keys and values).
var synonyms = func() map[string][]string {
	groups := []struct{ words, means string }{
		{"sales sale sold sell selling revenue revenues earnings income turnover purchases purchase spent spend spending bought",
			"invoice order sale total amount revenue payment price"},
		{"songs song tune tunes", "track song"},
		{"clients client buyers buyer purchasers", "customer client"},
		{"staff workers worker reps rep representative representatives", "employee staff rep"},
		{"singers singer bands band musicians musician", "artist"},
		{"style styles", "genre"},
		{"cost costs", "price cost amount"},
		{"items item goods", "product item"},
		{"year years yearly annual month months monthly day days daily when date dates week weekly", "date"},
	}
	m := map[string][]string{}
	for _, g := range groups {
		var means []string
		for _, w := range strings.Fields(g.means) {
			means = append(means, text.Stem(w))
		}
		for _, w := range strings.Fields(g.words) {
			m[text.Stem(w)] = means
		}
	}
	return m
}()

// stopWords are English words of questions that say nothing about which
// table holds the answer (stemmed, as they are looked up).
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the of in on at by for from to with without and or not no
		is are was were be been being has have had do does did what which who whom whose where when why how
		many much most least more less than per each every all any some me my our we you i it its this that these those
		show list give find get tell display return there their them they he she his her
		top bottom number count average avg sum highest lowest best worst
		between during over under into as about also only please`) {
		m[text.Stem(w)] = true
	}
	return m
}()
