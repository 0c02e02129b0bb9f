package postgres

import (
	"context"
	"testing"
	"time"

	"querent/engine"
)

func TestRunSmoke(t *testing.T) {
	db := openReader(t)
	res := mustRun(t, db, "SELECT name, count(*) AS n FROM artist JOIN album USING (artist_id) GROUP BY name ORDER BY n DESC, name LIMIT 3")
	t.Logf("%+v %v", res.Columns, res.Rows)
	res, err := db.Run(context.Background(), "SELECT * FROM track", engine.RunOptions{MaxRows: 5, Timeout: time.Second})
	if err != nil || len(res.Rows) != 5 || !res.Truncated {
		t.Fatalf("cap: %v %+v", err, res)
	}
	t.Logf("%s", res.ExecutedSQL)
	t.Logf("role %+v warnings %v prov %v", db.Role(), db.Warnings(), db.Provenance())
	_, err = db.Run(context.Background(), "SELECT title FROM albm", engine.RunOptions{})
	t.Logf("%v", err)
	_, err = db.Run(context.Background(), "SELECT titel FROM album", engine.RunOptions{})
	t.Logf("%v", err)
	v, err := db.Validate(context.Background(), "SELECT a.title, r.name FROM album a JOIN artist r USING (artist_id)")
	t.Logf("%+v %v", v, err)
}
