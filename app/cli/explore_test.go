package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"querent/engine/ollama/ollamatest"
)

func TestExploreCommand(t *testing.T) {
	code, out, errs := run(t, "", "explore", "--format", "json", "--language", "fr")
	if code != 0 {
		t.Fatal(errs)
	}
	var doc struct {
		Database string `json:"database"`
		Tables   []struct {
			Name    string `json:"name"`
			Rows    int64  `json:"rows"`
			Columns []struct {
				Name     string            `json:"name"`
				Type     string            `json:"type"`
				Nulls    *int64            `json:"nulls"`
				Distinct *int64            `json:"distinct"`
				Min      any               `json:"min"`
				Max      any               `json:"max"`
				Top      []json.RawMessage `json:"top"`
				Sampled  *bool             `json:"sampled"`
			} `json:"columns"`
		} `json:"tables"`
		Relationships []struct {
			From     string   `json:"from"`
			To       string   `json:"to"`
			Matched  *float64 `json:"matched"`
			Inferred bool     `json:"inferred"`
		} `json:"relationships"`
		Suggestions []struct {
			Question string `json:"question"`
			SQL      string `json:"sql"`
			RowCount int    `json:"row_count"`
		} `json:"suggestions"`
		Errors []any `json:"errors"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v: %.300s", err, out)
	}
	if len(doc.Tables) != 11 || doc.Errors == nil || len(doc.Errors) != 0 || len(doc.Relationships) != 11 {
		t.Fatalf("tables %d, relationships %d, errors %v", len(doc.Tables), len(doc.Relationships), doc.Errors)
	}
	for _, tb := range doc.Tables {
		for _, c := range tb.Columns {
			if c.Nulls == nil || c.Distinct == nil || c.Sampled == nil || c.Top == nil {
				t.Fatalf("%s.%s lacks a figure", tb.Name, c.Name)
			}
		}
	}
	if len(doc.Suggestions) < 5 {
		t.Fatalf("%d suggestions", len(doc.Suggestions))
	}
	for _, s := range doc.Suggestions {
		if s.RowCount == 0 || s.SQL == "" || !strings.ContainsAny(s.Question, "CQ") {
			t.Errorf("suggestion %+v", s)
		}
	}
	code, out, errs = run(t, "", "explore")
	if code != 0 {
		t.Fatal(errs)
	}
	for _, want := range []string{"Track (table): 3,503 rows", "Track.AlbumId → Album.AlbumId (declared, 100.0 % matched)", "Suggested questions:"} {
		if !strings.Contains(out, want) {
			t.Errorf("explore text lacks %q", want)
		}
	}
	code, out, _ = run(t, "", "explore", "--format", "json", "--db", "no-such-file.sqlite")
	if code == 0 || !strings.Contains(out, `"type": "database"`) {
		t.Errorf("a missing file: code %d, %.300s", code, out)
	}
}

// TestExploreWithAModel: --model adds the model's questions that run and
// return rows (kind "model") after the profile's; a model that cannot be
// reached leaves a warning and the profile's questions.
func TestExploreWithAModel(t *testing.T) {
	fake := ollamatest.New(t, ollamatest.Reply{Content: `{"questions": [
		{"question": "Which genres have the most tracks?", "sql": "SELECT g.Name, count(*) AS n FROM Track t JOIN Genre g USING (GenreId) GROUP BY 1 ORDER BY 2 DESC LIMIT 10"},
		{"question": "Drop it all", "sql": "DROP TABLE Track"}]}`})
	c := askCLI(t, fake)
	code, out, errs := runWith(t, c, "", "explore", "--model", "qwen2.5-coder:7b", "--format", "json")
	var doc struct {
		Suggestions []struct {
			Question, Kind string
			RowCount       int `json:"row_count"`
		} `json:"suggestions"`
		Warnings []string `json:"warnings"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &doc) != nil {
		t.Fatalf("exit %d %s %s", code, out, errs)
	}
	last := doc.Suggestions[len(doc.Suggestions)-1]
	models := 0
	for _, s := range doc.Suggestions {
		if s.Kind == "model" {
			models++
		}
	}
	if models != 1 || last.Kind != "model" || last.RowCount != 10 || len(doc.Warnings) != 0 {
		t.Errorf("suggestions %+v warnings %v", doc.Suggestions, doc.Warnings)
	}
	code, out, _ = runWith(t, c, "", "explore", "--model", "qwen2.5-coder:7b", "--ollama", "127.0.0.1:1", "--format", "json")
	if code != 0 || !strings.Contains(out, "the model proposed no questions") {
		t.Errorf("no model: exit %d %s", code, out)
	}
}
