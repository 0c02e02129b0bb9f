package ingest

import (
	"strconv"

	"querent/engine/words"
)

// A reason (why a column got its type, why it is skipped) is built in
// parts and said by package words in each language of
// engine.ReasonLanguages, from the import.* sentences of its tables: a
// sentence is a key and the parts it cites (counts, lines, values, nested
// sentences). What comes from the data (values, currency signs, date format
// patterns, type names) is never translated. English says exactly what the
// reports always said.
//
// The types below are the Inferrer's and the Source's vocabulary for those
// parts, each one word of package words: they keep the reasons' builders
// short (say("fit", count(n), …)), and a sentence's key readable where a
// builder looks at it (the Excel cells' reasons look for the missing-value
// note).

// part is a piece of a reason.
type part interface {
	words() words.Part
}

// sentence is a sentence of the tables (import.key), {1}…{9} its args.
type sentence struct {
	key  string
	args []part
}

// say makes a sentence.
func say(key string, args ...part) sentence { return sentence{key: key, args: args} }

func (s sentence) words() words.Part { return words.New("import."+s.key, wordsOf(s.args)...) }

// wordsOf is parts as package words' parts (a nil part says nothing).
func wordsOf(ps []part) []words.Part {
	out := make([]words.Part, len(ps))
	for i, p := range ps {
		if p != nil {
			out[i] = p.words()
		}
	}
	return out
}

// seq is parts said one after the other (a reason and its notes, each
// note's sentence starting with its separator).
type seq []part

func (q seq) words() words.Part { return words.Seq(wordsOf(q)...) }

// last is the last part of q, nil when none.
func (q seq) last() part {
	if len(q) == 0 {
		return nil
	}
	return q[len(q)-1]
}

// val is a value said as it is in every language: from the data, a
// currency sign, a date format pattern, a type name.
type val string

func (v val) words() words.Part { return words.Value(v) }

// quoted is a value from the data, quoted (Go-quoted in English).
type quoted string

func (v quoted) words() words.Part { return words.Quoted(v) }

// count is a count, with the language's thousands separators.
type count int64

func (n count) words() words.Part { return words.Count(n) }

// lineAt is a line of the file ("line 57"), a row of a sheet ("row 57").
type lineAt int64

func (n lineAt) words() words.Part { return words.Line(n) }

// list is parts joined the language's way: sep is "comma", "semi" or "or".
type list struct {
	sep   string
	items []part
}

func (x list) words() words.Part {
	sep := words.Comma
	switch x.sep {
	case "semi":
		sep = words.Semi
	case "or":
		sep = words.Or
	}
	return words.List(sep, wordsOf(x.items)...)
}

// vals lists values from the data.
func vals(sep string, vs []string) list {
	x := list{sep: sep, items: make([]part, len(vs))}
	for i, v := range vs {
		x.items[i] = val(v)
	}
	return x
}

// lineList is the lines of the first bad values: "12, 40, 55".
type lineList []int64

func (ls lineList) words() words.Part {
	items := make([]words.Part, len(ls))
	for i, n := range ls {
		items[i] = words.Value(strconv.FormatInt(n, 10))
	}
	return words.List(words.Comma, items...)
}

// pluralKey is key+"_1" when n is 1, key+"_n" otherwise.
func pluralKey(key string, n int64) string {
	if n == 1 {
		return key + "_1"
	}
	return key + "_n"
}

// sayAll says p in every language of engine.ReasonLanguages; rows says
// rows of a sheet rather than lines of a file. It returns the English one
// too.
func sayAll(p part, rows bool) (string, map[string]string) {
	if p == nil {
		return "", nil
	}
	out := words.Speaker{Sheet: rows}.Every(p.words())
	return out["en"], out
}

// english says p in English.
func english(p part, rows bool) string {
	if p == nil {
		return ""
	}
	return words.Speaker{Lang: "en", Sheet: rows}.Say(p.words())
}
