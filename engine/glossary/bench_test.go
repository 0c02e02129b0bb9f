package glossary_test

import (
	"context"
	"fmt"
	"testing"

	"querent/engine/glossary"
)

// BenchmarkUsed is the glossary's cost per question: reading a database's
// 50 entries from the store and matching them (two used, both current).
func BenchmarkUsed(b *testing.B) {
	ctx := context.Background()
	db, _ := chinook(b)
	g := newGlossary(b)
	for i := range 48 {
		if _, err := g.Add(ctx, db, glossary.Entry{Term: fmt.Sprintf("term number %c%c", 'a'+i%26, 'a'+i/26), Meaning: "m"}); err != nil {
			b.Fatal(err)
		}
	}
	g.Add(ctx, db, glossary.Entry{Term: "big invoice", Meaning: "an invoice over 20", SQL: "Total > 20"})
	g.Add(ctx, db, glossary.Entry{Term: "loyal customer", Meaning: "more than 6 invoices", SQL: "CustomerId IN (SELECT CustomerId FROM Invoice GROUP BY CustomerId HAVING count(*) > 6)"})
	b.ResetTimer()
	for b.Loop() {
		used, err := g.Used(ctx, db, "How many big invoices did our loyal customers get in 2012?")
		if err != nil || len(used) != 2 {
			b.Fatalf("%v %v", used, err)
		}
	}
}
