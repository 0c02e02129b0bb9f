package pgparse

import (
	"context"
	"testing"

	gopgquery "github.com/wasilibs/go-pgquery/parser"
)

const benchSQL = "SELECT c.country, count(*), sum(i.total) FROM customer c JOIN invoice i USING (customer_id) WHERE i.invoice_date >= date '2012-01-01' GROUP BY 1 ORDER BY 3 DESC LIMIT 10"

// BenchmarkParse is one parse by this package.
func BenchmarkParse(b *testing.B) {
	ctx := context.Background()
	Parse(ctx, benchSQL)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Parse(ctx, benchSQL); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGoPgquery is the same parse by go-pgquery's own binding.
func BenchmarkGoPgquery(b *testing.B) {
	gopgquery.ParseToJSON(benchSQL)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := gopgquery.ParseToJSON(benchSQL); err != nil {
			b.Fatal(err)
		}
	}
}
