package describe

import (
	"strconv"

	"querent/engine/words"
)

// chartWhy is the reason for a chart choice in parts, so that each
// language says it with its own words and grammar (package words, the
// chart.* sentences); the column names are never translated.
type chartWhy struct {
	key     string   // which sentence: chart.key
	names   []string // the columns it names first: the date, the category, every column…
	numbers []string // the numbers it names
	others  []string // a second group: the category a date repeats for or that splits the series, the columns that cannot be plotted, the numbers on a second axis
	count   int      // the rows, distinct values or columns it counts
}

// sentence is the reason as a sentence of package words. Every chart
// sentence takes the same nine parts (see the chart.* keys of the tables):
// each cites those it needs.
func (w chartWhy) sentence() words.Sentence {
	at := func(s []string, i int) words.Part {
		if i < len(s) {
			return words.Value(s[i])
		}
		return nil
	}
	var numbers, drawn, second words.Part
	switch len(w.numbers) {
	case 0:
	case 1:
		numbers = words.New("chart.number", words.Value(w.numbers[0]))
	default:
		numbers = words.New("chart.numbers", words.Word(len(w.numbers)), words.And(chartReasonMaxNames, w.numbers...))
	}
	if len(w.numbers) > maxSeries {
		drawn = words.New("chart.first_drawn", words.Word(maxSeries))
	}
	if len(w.others) > 0 && (w.key == "line" || w.key == "bar") {
		second = words.New("chart.second_axis", words.And(chartReasonMaxNames, w.others...))
		drawn = words.New("chart.then", drawn, second)
	}
	return words.New("chart."+w.key,
		words.And(chartReasonMaxNames, w.names...),  // {1}
		words.Word(len(w.names)),                    // {2}
		numbers,                                     // {3}
		words.And(chartReasonMaxNames, w.others...), // {4}
		at(w.numbers, 0),                            // {5}
		at(w.numbers, 1),                            // {6}
		words.Value(strconv.Itoa(w.count)),          // {7}
		words.Word(w.count),                         // {8}
		drawn,                                       // {9}
	)
}

// reasons says w in every language of engine.ReasonLanguages.
func (w chartWhy) reasons() map[string]string {
	return words.Speaker{}.Every(w.sentence())
}
