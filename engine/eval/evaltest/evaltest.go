// Package evaltest helps tests of the evaluation harness: a fake model
// that answers a gold set's questions.
package evaltest

import (
	"strings"
	"testing"

	"querent/engine/eval"
	"querent/engine/ollama/ollamatest"
)

// GoldResponder answers each question of a gold set as a model would, for
// ollamatest.Server.Respond: the model named good answers with the gold SQL
// (or abstains when the set says the schema cannot answer), any other model
// with SQL that runs but is wrong. The question is the gold question found
// last in the prompt's last user message.
func GoldResponder(t testing.TB, g *eval.GoldSet, good string) func(ollamatest.Request) ollamatest.Reply {
	return func(req ollamatest.Request) ollamatest.Reply {
		var last string
		for _, m := range req.Messages {
			if m.Role == "user" {
				last = m.Content
			}
		}
		var item *eval.Item
		at := -1
		for _, it := range g.Items {
			if i := strings.LastIndex(last, it.Question); i > at {
				item, at = it, i
			}
		}
		if item == nil {
			t.Errorf("evaltest: no gold question in the prompt: %.300s", last)
			return ollamatest.Abstain("", "no question")
		}
		switch {
		case req.Model != good:
			return ollamatest.Answer("SELECT 1 AS wrong", "Wrong on purpose.")
		case !item.Answerable():
			return ollamatest.Abstain("", item.Unanswerable)
		}
		return ollamatest.Answer(item.SQL, "The gold query.")
	}
}

// SmallGold is a gold set of five questions about the demo database, for
// scripted runs: easy to hard, a follow-up and an unanswerable one.
const SmallGold = `database = "Chinook"
[[item]]
id = "tracks"
question = "How many tracks are there?"
difficulty = "easy"
sql = "SELECT count(*) FROM Track"

[[item]]
id = "top-artist"
question = "Which artist has the most albums?"
difficulty = "medium"
sql = "SELECT ar.Name FROM Artist ar JOIN Album al USING (ArtistId) GROUP BY ar.ArtistId ORDER BY count(*) DESC LIMIT 1"
extra_columns = true

[[item]]
id = "top-artist-albums"
question = "List that artist's album titles."
difficulty = "medium"
follows = "top-artist"
sql = "SELECT Title FROM Album WHERE ArtistId = 90"

[[item]]
id = "salaries"
question = "What is the average salary?"
difficulty = "easy"
unanswerable = "no salaries"

[[item]]
id = "genres"
question = "How many genres are there?"
difficulty = "hard"
sql = "SELECT count(*) FROM Genre"
`
