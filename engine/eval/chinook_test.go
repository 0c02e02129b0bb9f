package eval_test

import (
	"context"
	"testing"

	"querent/engine"
	"querent/engine/eval"
	"querent/engine/sqlite"
)

func openDemo(t testing.TB) engine.Database {
	t.Helper()
	db, err := sqlite.OpenDemo(context.Background(), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func runSQL(t testing.TB, db engine.Database, q string) (eval.ResultSet, error) {
	t.Helper()
	res, err := db.Run(context.Background(), q, engine.RunOptions{MaxRows: 100000})
	if err != nil {
		return eval.ResultSet{}, err
	}
	cols := make([]string, len(res.Columns))
	for i, c := range res.Columns {
		cols[i] = c.Name
	}
	return eval.ResultSet{Columns: cols, Rows: res.Rows}, nil
}

// TestChinookGold checks every gold query of the built-in set against the
// demo database: it runs through the guard, returns rows, and each
// alternative gives the same result under the item's match rule (with float
// rounding forgiven: alternatives exist to accept both rounded and
// unrounded money).
func TestChinookGold(t *testing.T) {
	g, err := eval.Builtin("chinook")
	if err != nil {
		t.Fatal(err)
	}
	db := openDemo(t)
	count := map[string]int{}
	follows, unanswerable := 0, 0
	for _, it := range g.Items {
		count[it.Difficulty]++
		if it.Follows != "" {
			follows++
		}
		if !it.Answerable() {
			unanswerable++
			continue
		}
		gold, err := runSQL(t, db, it.SQL)
		if err != nil {
			t.Errorf("%s: the gold SQL does not run: %v", it.ID, err)
			continue
		}
		if len(gold.Rows) == 0 {
			t.Errorf("%s: the gold SQL returns no rows", it.ID)
		}
		if testing.Verbose() {
			t.Logf("%s: %d rows, first %v", it.ID, len(gold.Rows), gold.Rows[0])
		}
		for i, alt := range it.Alternatives {
			got, err := runSQL(t, db, alt)
			if err != nil {
				t.Errorf("%s: alternative %d does not run: %v", it.ID, i+1, err)
				continue
			}
			if v := eval.Compare(gold, got, it.Rule(it.SQL, true)); !v.Match {
				t.Errorf("%s: alternative %d differs from the gold SQL: %s", it.ID, i+1, v.Reason)
			}
		}
	}
	t.Logf("chinook: %d items: %v; %d follow-ups; %d unanswerable", len(g.Items), count, follows, unanswerable)
	if len(g.Items) < 60 || unanswerable < 8 || follows < 4 || count["easy"] == 0 || count["medium"] == 0 || count["hard"] == 0 {
		t.Errorf("the gold set is too small: %d items, %d unanswerable, %d follow-ups, %v", len(g.Items), unanswerable, follows, count)
	}
}
