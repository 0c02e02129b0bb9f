package postgres

import (
	"context"
	"encoding/hex"
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"querent/engine/text"

	"querent/engine"
)

// The benign corpus: analytical PostgreSQL that an analyst (or a model)
// writes. The guard must refuse none of it, and answer exactly what psql
// answers. psql is the reference rather than a second pgx connection: it is
// the client users trust, it prints PostgreSQL's own text output through
// libpq, and it shares no decoding code with Querent, so a mistake in
// Querent's value mapping cannot hide on both sides.

func loadBenign(t testing.TB) []string {
	t.Helper()
	b, err := os.ReadFile("testdata/benign.sql")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	var cur []string
	for _, line := range strings.Split(string(b), "\n") {
		if line == ";" {
			if q := strings.TrimSpace(strings.Join(cur, "\n")); q != "" {
				out = append(out, q)
			}
			cur = nil
			continue
		}
		if strings.HasPrefix(line, "-- ") && len(cur) == 0 {
			continue
		}
		cur = append(cur, line)
	}
	return out
}

// psqlText runs sql in psql and returns its rows as PostgreSQL prints them.
func psqlText(t testing.TB, sql string) ([][]string, error) {
	t.Helper()
	out, err := server(t).Psql(context.Background(), "chinook", "-F", "\x1f", "-R", "\x1e", "-P", "null="+nullMark, "-c", sql)
	if err != nil {
		return nil, err
	}
	out = strings.TrimSuffix(out, "\n")
	if out == "" {
		return nil, nil
	}
	var rows [][]string
	for _, r := range strings.Split(out, "\x1e") {
		rows = append(rows, strings.Split(r, "\x1f"))
	}
	return rows, nil
}

// sameValue compares one of Querent's values with psql's text of it.
func sameValue(v engine.Value, typ, text string) bool {
	switch x := v.(type) {
	case nil:
		return text == nullMark
	case int64:
		return strconv.FormatInt(x, 10) == text
	case float64:
		f, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return false
		}
		return f == x || (math.IsNaN(f) && math.IsNaN(x))
	case []byte:
		return `\x`+hex.EncodeToString(x) == text
	case string:
		if typ == "boolean" {
			return (x == "true" && text == "t") || (x == "false" && text == "f")
		}
		return x == text
	}
	return false
}

func rowKey(row []string) string { return strings.Join(row, "\x1f") }

func TestBenignCorpus(t *testing.T) {
	queries := loadBenign(t)
	if len(queries) < 120 {
		t.Fatalf("only %d benign queries; the corpus needs at least 120", len(queries))
	}
	db := openReader(t)
	ctx := context.Background()
	refused, same, ordered := 0, 0, 0
	start := time.Now()
	for i, q := range queries {
		name := text.Excerpt(q, 80)
		res, err := db.Run(ctx, q, engine.RunOptions{MaxRows: 100000, Timeout: 10 * time.Second})
		if err != nil {
			refused++
			t.Errorf("%d %s: %v", i, name, err)
			continue
		}
		want, err := psqlText(t, q)
		if err != nil {
			t.Errorf("%d %s: psql: %v", i, name, err)
			continue
		}
		if len(want) != len(res.Rows) {
			t.Errorf("%d %s: %d rows, psql %d", i, name, len(res.Rows), len(want))
			continue
		}
		// Each of Querent's rows written as psql's text where they agree,
		// so that rows can be compared as a multiset.
		got := make([][]string, len(res.Rows))
		ok := true
		for r, row := range res.Rows {
			got[r] = make([]string, len(row))
			for c, v := range row {
				got[r][c] = "\x00" + engineText(v)
			}
		}
		// Match rows in order first; where the order differs (ties in
		// ORDER BY), match as a multiset.
		inOrder := true
		for r := range got {
			if len(want[r]) != len(res.Columns) {
				t.Errorf("%d %s: %d columns, psql %d", i, name, len(res.Columns), len(want[r]))
				ok = false
				break
			}
			for c := range got[r] {
				if !sameValue(res.Rows[r][c], res.Columns[c].Type, want[r][c]) {
					inOrder = false
				}
			}
		}
		if !ok {
			continue
		}
		if inOrder {
			ordered++
			same++
			continue
		}
		used := make([]bool, len(want))
		matched := 0
		for r, row := range res.Rows {
			for w := range want {
				if used[w] {
					continue
				}
				all := true
				for c := range row {
					if !sameValue(row[c], res.Columns[c].Type, want[w][c]) {
						all = false
						break
					}
				}
				if all {
					used[w] = true
					matched++
					break
				}
			}
			_ = r
		}
		if matched == len(want) {
			same++
			continue
		}
		var diff []string
		for w := range want {
			if !used[w] {
				diff = append(diff, "psql: "+rowKey(want[w]))
			}
		}
		sort.Strings(diff)
		t.Errorf("%d %s: %d of %d rows differ from psql's, e.g. %v; Querent's first row %v", i, name, len(want)-matched, len(want), diff[:min(3, len(diff))], res.Rows[0])
	}
	report.mu.Lock()
	report.benignN, report.benignFP, report.benignSame = len(queries), refused, same
	report.benignHow = fmt.Sprintf("%d row for row in the same order, %d as a multiset (rows tied in ORDER BY)", ordered, same-ordered)
	report.benignTime = time.Since(start)
	report.mu.Unlock()
}

func engineText(v engine.Value) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return engine.FormatFloat(x)
	case []byte:
		return hex.EncodeToString(x)
	case string:
		return x
	}
	return "?"
}
