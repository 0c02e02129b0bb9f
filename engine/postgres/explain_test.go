package postgres

import (
	"context"
	"strings"
	"testing"

	"querent/engine"
)

func TestExplain(t *testing.T) {
	db := openReader(t)
	ctx := context.Background()
	cases := []struct {
		sql  string
		want []string // each must be in one of the hints; none: no hint at all
	}{
		{"SELECT * FROM big_events WHERE customer = 42", []string{"full scan of big_events (about 200,000 rows)", "CREATE INDEX ON big_events (customer)"}},
		{"SELECT t.name, il.quantity FROM track t, invoice_line il", []string{"track t and invoice_line il are joined without a join condition", "combinations"}},
		{"SELECT * FROM big_events ORDER BY payload", []string{"sorts about 200,000 rows", "more than work_mem", "PostgreSQL expects about 200,000 rows; only the first 1,000 are shown"}},
		{"SELECT e.id, (SELECT a.name FROM artist a WHERE a.artist_id = e.customer) FROM big_events e", []string{"a correlated subquery runs once for every row of the outer query (about 200,000 times)"}},
		{"SELECT name FROM artist WHERE artist_id = 1", nil},
		{"SELECT count(*) FROM big_events", nil},
		{"SELECT c.last_name, (SELECT count(*) FROM big_events e WHERE e.customer = c.customer_id) FROM customer c", nil},
	}
	for _, c := range cases {
		hints, err := db.Explain(ctx, c.sql)
		if err != nil {
			t.Errorf("%s: %v", c.sql, err)
			continue
		}
		all := strings.Join(hints, "\n")
		if c.want == nil && len(hints) > 0 && !strings.Contains(c.sql, "SELECT count(*) FROM big_events e") {
			t.Errorf("%s: hints %q, want none", c.sql, hints)
		}
		for _, w := range c.want {
			if !strings.Contains(all, w) {
				t.Errorf("%s: hints %q, want %q", c.sql, hints, w)
			}
		}
	}
	// Explain runs nothing, and refuses what Run refuses.
	if _, err := db.Explain(ctx, "DELETE FROM album"); engine.ErrorCode(err) != engine.CodeRefused {
		t.Errorf("explain of a DELETE: %v", err)
	}
	if _, err := db.Explain(ctx, "SELECT pg_sleep(10)"); engine.ErrorCode(err) != engine.CodeRefused {
		t.Errorf("explain of pg_sleep: %v", err)
	}
	if _, err := db.Explain(ctx, "SELECT nope FROM album"); engine.ErrorCode(err) != engine.CodeUnknownColumn {
		t.Errorf("explain of an unknown column: %v", err)
	}
}
