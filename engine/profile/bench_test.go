package profile_test

import (
	"context"
	"testing"

	"querent/engine/profile"
)

// BenchmarkChinook profiles Chinook and writes its suggestions (goal:
// under a second).
func BenchmarkChinook(b *testing.B) {
	db := open(b, chinook(b))
	b.ResetTimer()
	for b.Loop() {
		p, err := profile.Profile(context.Background(), db, profile.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := profile.Suggest(context.Background(), db, p, "en", 0); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMillionRows profiles a generated 1,000,000-row table (sampled:
// its first 100,000 rows); the file is written before the timed part.
func BenchmarkMillionRows(b *testing.B) {
	path := build(b,
		"CREATE TABLE sales (id INTEGER PRIMARY KEY, day TEXT, region TEXT, amount REAL, qty INTEGER)",
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 1000000)
		 INSERT INTO sales SELECT i, date('2020-01-01', '+' || (i % 1500) || ' days'), 'r' || (i % 12), (i % 997) * 1.25, i % 50 FROM n`)
	db := open(b, path)
	b.ResetTimer()
	for b.Loop() {
		p, err := profile.Profile(context.Background(), db, profile.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if t := p.Table("sales"); t == nil || !t.Sampled || t.Rows != 1_000_000 {
			b.Fatalf("sales: %+v", t)
		}
	}
}
