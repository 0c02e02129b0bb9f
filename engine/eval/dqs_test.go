package eval_test

import (
	"context"
	"strings"
	"testing"

	"querent/engine"
	"querent/engine/eval"
)

// Gold queries often write text in double quotes (Spider's do, 112 of 533
// on its dev set). The guard reads such text as text, so a gold set with
// them fits the database, and predictions in either quoting match.
func TestRunGoldWithDoubleQuotedText(t *testing.T) {
	g, err := eval.Parse("dq.toml", []byte(`
[[item]]
id = "brazil"
question = "How many customers are in Brazil?"
difficulty = "easy"
sql = 'SELECT count(*) FROM Customer WHERE Country = "Brazil"'

[[item]]
id = "acdc"
question = "Which albums are by AC/DC?"
difficulty = "medium"
sql = 'SELECT T1.Title FROM Album AS T1 JOIN Artist AS T2 ON T1.ArtistId = T2.ArtistId WHERE T2.Name = "AC/DC"'
alternatives = ['SELECT Title FROM Album WHERE ArtistId IN (SELECT ArtistId FROM Artist WHERE Name IN ("AC/DC"))']
`))
	if err != nil {
		t.Fatal(err)
	}
	preds := map[string]eval.Prediction{
		"brazil": {ID: "brazil", SQL: "SELECT count(*) FROM Customer WHERE Country = 'Brazil'"},
		"acdc":   {ID: "acdc", SQL: `SELECT al.Title FROM Album al JOIN Artist ar USING (ArtistId) WHERE ar.Name = "AC/DC"`},
	}
	rep, err := eval.Run(context.Background(), eval.Options{Gold: g, DB: openDemo(t), Predictions: preds})
	if err != nil {
		t.Fatalf("the gold set does not fit: %v", err)
	}
	if m := rep.Models[0]; m.Matches != 2 || m.Questions != 2 {
		t.Errorf("%d of %d matched: %+v", m.Matches, m.Questions, m.Items)
	}
}

// A misspelt column in double quotes is still not text: a gold query with
// one does not run, and the gold set is refused.
func TestRunGoldWithMisspeltQuotedColumn(t *testing.T) {
	g, err := eval.Parse("dq.toml", []byte(`
[[item]]
id = "typo"
question = "How many customers are in Brazil?"
difficulty = "easy"
sql = "SELECT count(*) FROM Customer WHERE \"Contry\" = 'Brazil'"
`))
	if err != nil {
		t.Fatal(err)
	}
	_, err = eval.Run(context.Background(), eval.Options{Gold: g, DB: openDemo(t), Predictions: map[string]eval.Prediction{}})
	if engine.ErrorCode(err) != engine.CodeUsage || !strings.Contains(err.Error(), `item "typo": the gold SQL does not run: no such column: "Contry"`) {
		t.Errorf("got %v", err)
	}
}
