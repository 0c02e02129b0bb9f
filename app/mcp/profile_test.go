package mcp_test

import (
	"encoding/json"
	"strings"
	"testing"

	"querent/app/mcp"
	"querent/engine"
)

func TestProfileTable(t *testing.T) {
	f := newFixture(t, 1, mcp.Options{})
	r := f.call(t, "profile_table", map[string]any{"table": "track"})
	tb, _ := r.doc["table"].(map[string]any)
	if r.isError || tb == nil {
		t.Fatalf("profile_table: %s", r.text)
	}
	b, _ := json.Marshal(tb)
	for _, want := range []string{`"name":"Track"`, `"rows":3503`, `"sampled":false`, `"name":"Composer","nulls":978,"observed":"text"`,
		`"max":5286953,"max_length":null,"min":1071,"min_length":null,"name":"Milliseconds","nulls":0,"observed":"integer"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("profile_table lacks %s: %.1500s", want, b)
		}
	}
	rels, _ := json.Marshal(r.doc["relationships"])
	if !strings.Contains(string(rels), `{"from":"Track.AlbumId","inferred":false,"matched":null,"to":"Album.AlbumId"}`) {
		t.Errorf("relationships: %s", rels)
	}
	r = f.call(t, "profile_table", map[string]any{"table": "Tracks"})
	if !r.isError || r.errType() != engine.CodeUnknownTable || !strings.Contains(r.errField("hint"), "Track") {
		t.Errorf("unknown table: %s", r.text)
	}
}
