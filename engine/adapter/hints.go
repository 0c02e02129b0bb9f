package adapter

import (
	"querent/engine/words"
)

// The hints of an unknown column, in words (each face says them in its
// language; the model reads them in English).

// DidYouMean is "did you mean A, B or C?".
func DidYouMean(names []string) words.Part {
	return words.New("hint.did_you_mean", words.Either(names...))
}

// JoinIt says that names are in tables the query does not read yet.
func JoinIt(names []string) words.Part {
	return words.New("hint.join_it", words.Either(names...))
}

// TableHas lists a table's columns, at most 40 of them.
func TableHas(table string, columns []string) words.Part {
	return words.New("hint.table_has", words.Value(table), words.And(41, columns...))
}

// TextQuotes says that text goes in single quotes: dialect is "SQL" or
// "PostgreSQL", literal the text as a quoted literal's inside.
func TextQuotes(dialect, literal string) words.Part {
	return words.New("hint.text_quotes", words.Value(dialect), words.Value(literal))
}

// SayHints is hints said one after the other.
func SayHints(parts []words.Part) words.Sentence {
	return words.Seq(words.List(words.Sentences, parts...))
}
