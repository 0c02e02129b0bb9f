package pgparse

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	gopgquery "github.com/wasilibs/go-pgquery/parser"
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "pgparse-cache-")
	if err != nil {
		panic(err)
	}
	Warm(filepath.Join(dir, "cache"))
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

var sameAsGoPgquery = []string{
	"SELECT 1",
	"SELECT 1; SELECT 2",
	"WITH x AS (SELECT a FROM t) SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY a) FILTER (WHERE a > 1) FROM x",
	"SELECT * FROM a JOIN LATERAL (SELECT * FROM b WHERE b.id = a.id LIMIT 1) c ON true",
	"SELECT U&\"d\\0061t\\+000061\" FROM t",
	"SELECT $$dollar$$, E'\\n', 'it''s'",
	"COMMIT; DELETE FROM t; SELECT 1",
	"/* c */ -- d\n SELECT 1",
	"",
}

func TestSameTreesAsGoPgquery(t *testing.T) {
	ctx := context.Background()
	for _, q := range sameAsGoPgquery {
		got, err := Parse(ctx, q)
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		want, err := gopgquery.ParseToJSON(q)
		if err != nil {
			t.Fatalf("go-pgquery %q: %v", q, err)
		}
		if string(got) != want {
			t.Errorf("%q:\n got %s\nwant %s", q, got, want)
		}
	}
	for _, q := range []string{"SELEC 1", "SELECT 'a", "SELECT * FROM t WHERE"} {
		_, err := Parse(ctx, q)
		_, want := gopgquery.ParseToJSON(q)
		var pe *Error
		var we *gopgquery.Error
		if !errors.As(err, &pe) || !errors.As(want, &we) {
			t.Fatalf("%q: errors %v and %v", q, err, want)
		}
		if pe.Message != we.Message || pe.Cursor != we.Cursorpos {
			t.Errorf("%q: got %q at %d, want %q at %d", q, pe.Message, pe.Cursor, we.Message, we.Cursorpos)
		}
	}
}

// TestDeepNesting checks that statements nested far past the module's own
// stack parse, that those past this package's stack fail cleanly, and that
// the parser works normally afterwards.
func TestDeepNesting(t *testing.T) {
	ctx := context.Background()
	deep := map[string]string{
		"subqueries": strings.Repeat("SELECT * FROM (", 1000) + "SELECT 1" + strings.Repeat(") x", 1000),
		"calls":      "SELECT " + strings.Repeat("abs(", 3000) + "1" + strings.Repeat(")", 3000),
		"plus":       "SELECT 1" + strings.Repeat(" + 1", 5000),
		"concat":     "SELECT 'a'" + strings.Repeat(" || 'a'", 5000),
		"case":       "SELECT " + strings.Repeat("CASE WHEN true THEN ", 1000) + "1" + strings.Repeat(" END", 1000),
		"union":      strings.Repeat("SELECT 1 UNION ALL ", 20000) + "SELECT 1",
		"parens":     "SELECT " + strings.Repeat("(", 5000) + "1" + strings.Repeat(")", 5000),
	}
	for name, q := range deep {
		if _, err := Parse(ctx, q); err != nil {
			t.Errorf("%s (%d bytes): %v", name, len(q), err)
		}
	}
	// Past PostgreSQL's own grammar limit (bison's 10,000 states): the
	// server's own error. Past the stacks: ErrTooDeep. Neither hangs.
	var pe *Error
	if _, err := Parse(ctx, "SELECT "+strings.Repeat("abs(", 20000)+"1"+strings.Repeat(")", 20000)); !errors.As(err, &pe) || pe.Message != `memory exhausted at or near "abs"` {
		t.Errorf("20,000 nested calls: %v, want PostgreSQL's memory exhausted", err)
	}
	if _, err := Parse(ctx, "SELECT 1"+strings.Repeat(" + 1", 30000)); !errors.Is(err, ErrTooDeep) {
		t.Errorf("30,000 terms: %v, want ErrTooDeep", err)
	}
	if out, err := Parse(ctx, "SELECT a FROM t"); err != nil || !strings.Contains(string(out), `"relname":"t"`) {
		t.Errorf("after the deep statements: %s, %v", out, err)
	}
}

func TestConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 50; j++ {
				if _, err := Parse(context.Background(), "SELECT a, count(*) FROM t GROUP BY a"); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Parse(ctx, "SELECT 1"); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}
