package page_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"querent/engine"
)

// The start view's content on a Chinook file: every table profiled, the
// joins, and 5 to 10 suggestions in French whose kept rows are what their
// SQL returns when run again; a second call re-uses the cache.
func TestExploreChinook(t *testing.T) {
	svc, _ := newServices(t)
	if _, err := svc.Datasets.Explore("fr"); engine.ErrorCode(err) != engine.CodeUsage {
		t.Errorf("explore with nothing open: %v", err)
	}
	b, err := os.ReadFile("../../engine/sqlite/demo/Chinook_Sqlite.sqlite")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "chinook.sqlite")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Datasets.Open(path); err != nil {
		t.Fatal(err)
	}
	ex, err := svc.Datasets.Explore("fr")
	if err != nil {
		t.Fatal(err)
	}
	if len(ex.Tables) != 11 {
		t.Errorf("tables: %d", len(ex.Tables))
	}
	rows := map[string]int64{}
	for _, tb := range ex.Tables {
		rows[tb.Name] = tb.Rows
		if len(tb.Columns) == 0 {
			t.Errorf("%s has no columns", tb.Name)
		}
	}
	if rows["Artist"] != 275 || rows["Track"] != 3503 || rows["Invoice"] != 412 {
		t.Errorf("rows: %v", rows)
	}
	joins := map[string]string{}
	for _, r := range ex.Relationships {
		joins[r.From] = r.To
	}
	if joins["Track.AlbumId"] != "Album.AlbumId" || joins["Album.ArtistId"] != "Artist.ArtistId" {
		t.Errorf("relationships: %v", joins)
	}
	if n := len(ex.Suggestions); n < 5 || n > 10 {
		t.Fatalf("%d suggestions", n)
	}
	french := 0
	for _, s := range ex.Suggestions {
		if s.RowCount <= 0 || len(s.Rows.Values) != s.RowCount || s.SQL == "" {
			t.Errorf("suggestion %q: %d rows kept of %d", s.Question, len(s.Rows.Values), s.RowCount)
		}
		if strings.ContainsAny(s.Question, "éèàç") || strings.Contains(s.Question, " par ") || strings.Contains(s.Question, " de ") {
			french++
		}
		ans, err := svc.Results.Run(s.SQL)
		if err != nil || len(ans.Errors) != 0 || ans.RowCount != s.RowCount {
			t.Errorf("%q re-run: %v %+v, %d rows against %d kept", s.Question, err, ans.Errors, ans.RowCount, s.RowCount)
		}
	}
	if french < len(ex.Suggestions)/2 {
		t.Errorf("the suggestions are not in French: %+v", ex.Suggestions)
	}
	again, err := svc.Datasets.Explore("fr")
	if err != nil || len(again.Tables) != len(ex.Tables) || again.Tables[0] != ex.Tables[0] {
		t.Errorf("the second explore did not re-use the cached profile: %v", err)
	}
	en, err := svc.Datasets.Explore("en")
	if err != nil || len(en.Suggestions) == 0 || en.Suggestions[0].Question == ex.Suggestions[0].Question {
		t.Errorf("English suggestions: %v %+v", err, en.Suggestions)
	}
}
