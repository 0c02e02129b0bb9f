package cli

import (
	"encoding/json"
	"strings"
	"testing"
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
