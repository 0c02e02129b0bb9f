package sqlite

import (
	"context"
	"strings"
	"testing"
)

func planFixture(t *testing.T) string {
	return makeDB(t, t.TempDir(), "plan.db",
		"CREATE TABLE big(id INTEGER PRIMARY KEY, cat TEXT, amount REAL, note TEXT)",
		"CREATE TABLE small(id INTEGER PRIMARY KEY, name TEXT)",
		"WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 20000) INSERT INTO big SELECT n, 'c' || (n % 7), n * 0.5, 'note' FROM r",
		"WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 50) INSERT INTO small SELECT n, 'c' || (n % 7) FROM r")
}

func TestExplainHints(t *testing.T) {
	db := openT(t, planFixture(t), Options{LargeTableRows: 1000})
	tests := []struct {
		sql  string
		want []string // fragments, one per expected hint; nil: no hint at all
	}{
		{"SELECT * FROM big WHERE id = 5", nil},
		{"SELECT * FROM big WHERE amount > 10", []string{"full scan of big (20,000 rows) although the query filters it on amount", "CREATE INDEX idx_big_amount ON big(amount)"}},
		{"SELECT note FROM big", []string{"reads all 20,000 rows of big (no WHERE filter on it)"}},
		{"SELECT cat, sum(amount) FROM big GROUP BY cat", []string{"temporary B-tree for GROUP BY"}},
		{"SELECT * FROM big ORDER BY note LIMIT 5", []string{"temporary B-tree for ORDER BY"}},
		{"SELECT * FROM big b JOIN small s ON s.name = b.cat", []string{"temporary index on small(name)", "CREATE INDEX idx_small_name ON small(name)"}},
		{"SELECT * FROM big a, small b", []string{"big a and small b are joined without a join condition (a cartesian product: 1,000,000 combinations)"}},
		{"SELECT * FROM big a JOIN small b ON a.note <> b.name", []string{"joined without an equality condition"}},
		{"SELECT (SELECT count(*) FROM small s WHERE s.name = b.cat) FROM big b", []string{"correlated subquery runs once for every row"}},
	}
	for _, tt := range tests {
		hints, err := db.Explain(context.Background(), tt.sql)
		if err != nil {
			t.Fatalf("%s: %v", tt.sql, err)
		}
		all := strings.Join(hints, "\n")
		if tt.want == nil && len(hints) > 0 {
			t.Errorf("%s: hints %q, want none", tt.sql, hints)
		}
		for _, w := range tt.want {
			if !strings.Contains(all, w) {
				t.Errorf("%s: hints\n%s\nlack %q", tt.sql, all, w)
			}
		}
	}
	// Small tables get no noise about scans and sorts.
	chinook := openT(t, copyChinook(t), Options{})
	for _, q := range []string{"SELECT * FROM Track ORDER BY Name", "SELECT GenreId, count(*) FROM Track GROUP BY GenreId", "SELECT * FROM Track WHERE TrackId = 1"} {
		hints, err := chinook.Explain(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		if len(hints) > 0 {
			t.Errorf("%s on Chinook: hints %q, want none", q, hints)
		}
	}
	if _, err := chinook.Explain(context.Background(), "DELETE FROM Track"); err == nil {
		t.Error("Explain ran a DELETE through the plan")
	}
}
