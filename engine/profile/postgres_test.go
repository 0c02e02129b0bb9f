package profile_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"querent/engine/postgres"
	"querent/engine/postgres/pgtest"
	"querent/engine/profile"
)

// TestProfileOnPostgres: the first look on PostgreSQL (issue 26) — the same
// figures from the server's rows, the declared keys with their matched
// share, and suggestions in three languages whose SQL the PostgreSQL guard
// runs again to the same rows.
func TestProfileOnPostgres(t *testing.T) {
	_, url := pgtest.StartChinook(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	db, err := postgres.Open(ctx, url, postgres.Options{RequireReadOnlyRole: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	p, err := profile.Profile(ctx, db, profile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Skipped) != 0 {
		t.Fatalf("skipped: %v", p.Skipped)
	}
	tr := p.Table("track")
	if tr == nil || tr.Rows != 3503 || tr.Sampled {
		t.Fatalf("track: %+v", tr)
	}
	nulls, err := db.Run(ctx, "SELECT count(*) FROM track WHERE composer IS NULL", engineRun())
	if err != nil {
		t.Fatal(err)
	}
	if c := tr.Column("composer"); c == nil || c.Nulls != nulls.Rows[0][0].(int64) || c.Top[0].Value != "Steve Harris" {
		t.Fatalf("track.composer: %+v, want %v NULLs", c, nulls.Rows[0][0])
	}
	if c := tr.Column("milliseconds"); c == nil || c.Min.V != int64(1071) || c.Max.V != int64(5286953) || len(c.Histogram) == 0 {
		t.Fatalf("track.milliseconds: %+v", c)
	}
	if g := p.Table("genre").Column("name"); g == nil || g.Distinct != 25 {
		t.Fatalf("genre.name: %+v", g)
	}
	found := false
	for _, r := range p.Relationships {
		if r.From == "track.album_id" && r.To == "album.album_id" && !r.Inferred && r.Matched != nil && *r.Matched == 1 {
			found = true
		}
	}
	if !found {
		b, _ := json.Marshal(p.Relationships)
		t.Fatalf("no declared track.album_id → album.album_id: %s", b)
	}
	for _, lang := range profile.Languages {
		s, err := profile.Suggest(ctx, db, p, lang, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(s) < 5 {
			t.Fatalf("%s: %d suggestions", lang, len(s))
		}
		for _, x := range s {
			res, err := db.Run(ctx, x.SQL, engineRun())
			if err != nil {
				t.Fatalf("%s: the guard refused %s: %v", x.Question, x.SQL, err)
			}
			a, _ := json.Marshal(res.Rows)
			b, _ := json.Marshal(x.Rows.Values)
			if len(res.Rows) != x.RowCount || string(a) != string(b) {
				t.Errorf("%s: re-run gives %d rows, kept %d", x.SQL, len(res.Rows), x.RowCount)
			}
		}
	}
}
