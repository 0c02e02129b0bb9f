package sqlite

import (
	"context"
	"fmt"
	"querent/engine/adapter"
	"querent/engine/sqltext"
	"querent/engine/text"
	"regexp"
	"strings"
	"time"

	"querent/engine"
)

// planRow is one row of EXPLAIN QUERY PLAN.
type planRow struct {
	id, parent int64
	detail     string
}

// Explain returns query-plan hints for query: what makes it slow and what
// would help, from EXPLAIN QUERY PLAN run on the same guarded connection.
// A query that SQLite can answer well gets no hints.
func (d *DB) Explain(ctx context.Context, query string) ([]string, error) {
	var hints []string
	err := d.withLock(ctx, func() error {
		v, err := d.validateLocked(ctx, query)
		if err != nil {
			return err
		}
		hints, err = d.explainLocked(ctx, v)
		return err
	})
	if err != nil {
		return nil, engine.AsError(err)
	}
	return hints, nil
}

var (
	reScan      = regexp.MustCompile(`^SCAN (\S+)(?: USING (?:COVERING )?INDEX (\S+))?`)
	reAutoIndex = regexp.MustCompile(`AUTOMATIC (?:PARTIAL )?(?:COVERING )?INDEX(?: ON (\S+?)\(([^)]*)\)| \(([^)]*)\))`)
	reSearchOn  = regexp.MustCompile(`^SEARCH (\S+) USING AUTOMATIC`)
	reTempTree  = regexp.MustCompile(`^USE TEMP B-TREE FOR (.+)$`)
	reCorrel    = regexp.MustCompile(`^CORRELATED (?:SCALAR |LIST |ROW )?SUBQUERY`)
)

func (d *DB) explainLocked(ctx context.Context, v *engine.Validation) ([]string, error) {
	tctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	d.auth.reset(policyQuery)
	rows, err := d.conn.QueryContext(tctx, "EXPLAIN QUERY PLAN "+v.SQL)
	if err != nil {
		return nil, d.runError(ctx, tctx, v.SQL, v.SQL, 5*time.Second, err)
	}
	var plan []planRow
	for rows.Next() {
		var r planRow
		var notused int64
		if err := rows.Scan(&r.id, &r.parent, &notused, &r.detail); err != nil {
			rows.Close()
			return nil, err
		}
		plan = append(plan, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	idx, err := d.nameIndexLocked(ctx)
	if err != nil {
		return nil, err
	}
	_, aliases := queryTables(v.SQL, idx)
	clauses := clauseColumns(v.SQL)
	resolve := func(name string) string {
		if t, ok := aliases[strings.ToLower(name)]; ok {
			return t
		}
		if tn := idx.Table(name); tn != nil && tn.Kind == "table" {
			return tn.Name
		}
		return ""
	}
	var hints adapter.Hints
	add := hints.Add
	large := d.opts.LargeTableRows
	var maxScanned int64
	scansByParent := map[int64][]string{}
	for _, r := range plan {
		if m := reScan.FindStringSubmatch(r.detail); m != nil {
			t := resolve(m[1])
			if t == "" {
				continue
			}
			n := d.rowCountLocked(ctx, t)
			maxScanned = max(maxScanned, n)
			scansByParent[r.parent] = append(scansByParent[r.parent], t+"\x00"+m[1])
			if n < large {
				continue
			}
			filtered := columnsOf(clauses["WHERE"], t, idx)
			if len(filtered) > 0 {
				add("full scan of %s (%s rows) although the query filters it on %s: an index would let SQLite read only the matching rows — %s "+
					"(the file's owner can add it; Querent never changes the file)",
					t, engine.GroupThousands(n), strings.Join(filtered, ", "), createIndex(t, filtered))
			} else {
				add("reads all %s rows of %s (no WHERE filter on it); if only part of it is needed, filter with WHERE or stop early with LIMIT",
					engine.GroupThousands(n), t)
			}
			continue
		}
		if m := reAutoIndex.FindStringSubmatch(r.detail); m != nil {
			table, cols := m[1], m[2]
			if table == "" {
				if s := reSearchOn.FindStringSubmatch(r.detail); s != nil {
					table = s[1]
				}
				cols = m[3]
			}
			t := resolve(table)
			if t == "" {
				t = table
			}
			names := planColumns(cols)
			add("SQLite builds a temporary index on %s(%s) every time this query runs, because no index fits the join; "+
				"a permanent one would make it faster — %s (the file's owner can add it)", t, strings.Join(names, ", "), createIndex(t, names))
			continue
		}
		if m := reTempTree.FindStringSubmatch(r.detail); m != nil {
			what := m[1]
			if maxScanned < large {
				continue
			}
			clause := "ORDER BY"
			if strings.HasPrefix(what, "GROUP BY") {
				clause = "GROUP BY"
			} else if strings.HasPrefix(what, "DISTINCT") {
				clause = "DISTINCT"
			}
			add("sorts up to %s rows in a temporary B-tree for %s; an index on the %s column(s) would give the rows already in order",
				engine.GroupThousands(maxScanned), what, clause)
			continue
		}
		if reCorrel.MatchString(r.detail) {
			add("a correlated subquery runs once for every row of the outer query; a JOIN with GROUP BY, or a window function, computes the same in one pass")
		}
	}
	hasJoinCondition := len(clauses["ON"]) > 0 || len(clauses["USING"]) > 0 || len(clauses["WHERE"]) > 0
	for _, scans := range scansByParent {
		if len(scans) < 2 {
			continue
		}
		product := int64(1)
		var names []string
		for _, s := range scans {
			t, alias, _ := strings.Cut(s, "\x00")
			product = satMul(product, d.rowCountLocked(ctx, t))
			if alias != t {
				names = append(names, t+" "+alias)
			} else {
				names = append(names, t)
			}
		}
		if product < large {
			continue
		}
		if hasJoinCondition {
			add("%s are joined without an equality condition SQLite can use: each row of one is compared with every row of the other (%s combinations); "+
				"join on key columns (ON a.key = b.key)", orAnd(names), engine.GroupThousands(product))
		} else {
			add("%s are joined without a join condition (a cartesian product: %s combinations); add ON a.key = b.key, "+
				"or JOIN … USING (key), for the columns that link them", orAnd(names), engine.GroupThousands(product))
		}
	}
	return hints.List(), nil
}

// clauseColumns collects the identifiers that appear in each clause of a
// statement (WHERE, ON, USING, GROUP BY, ORDER BY), by keyword.
func clauseColumns(sql string) map[string][]string {
	out := map[string][]string{}
	cur := ""
	toks := sqltext.Lex(sql)
	for i, t := range toks {
		if t.Kind != sqltext.Word && t.Kind != sqltext.Quoted {
			continue
		}
		w := strings.ToUpper(sql[t.Start:t.End])
		if t.Kind == sqltext.Word {
			switch w {
			case "WHERE", "ON", "USING", "HAVING":
				cur = w
				continue
			case "GROUP", "ORDER":
				cur = w + " BY"
				continue
			case "FROM", "JOIN", "SELECT", "LIMIT", "WINDOW", "UNION", "EXCEPT", "INTERSECT":
				cur = ""
				continue
			}
			if sqlKeywords[w] {
				continue
			}
		}
		// A name followed by "(" is a function, not a column.
		j := i + 1
		for j < len(toks) && toks[j].Kind == sqltext.Space {
			j++
		}
		if j < len(toks) && sql[toks[j].Start:toks[j].End] == "(" {
			continue
		}
		if cur != "" {
			out[cur] = append(out[cur], sqltext.IdentText(sql, t))
		}
	}
	return out
}

// columnsOf returns the names in names that are columns of table.
func columnsOf(names []string, table string, idx *adapter.Names) []string {
	tn := idx.Table(table)
	if tn == nil {
		return nil
	}
	var out []string
	for _, n := range names {
		for _, c := range tn.Columns {
			if strings.EqualFold(c, n) && !text.ContainsFold(out, c) {
				out = append(out, c)
			}
		}
	}
	return out
}

// planColumns reads "Name=? AND x>?" into [Name x].
func planColumns(s string) []string {
	var out []string
	for _, part := range strings.Split(s, " AND ") {
		part = strings.TrimSpace(part)
		if i := strings.IndexAny(part, "=<>"); i > 0 {
			part = part[:i]
		}
		if part != "" {
			out = append(out, part)
		}
	}
	return out
}

func createIndex(table string, cols []string) string {
	name := "idx_" + strings.ToLower(table)
	quoted := make([]string, len(cols))
	for i, c := range cols {
		name += "_" + strings.ToLower(c)
		quoted[i] = quoteIdentIfNeeded(c)
	}
	return fmt.Sprintf("CREATE INDEX %s ON %s(%s)", quoteIdentIfNeeded(name), quoteIdentIfNeeded(table), strings.Join(quoted, ", "))
}

func quoteIdentIfNeeded(s string) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(sqltext.IsIdentChar(c) && c < 0x80) || (i == 0 && '0' <= c && c <= '9') {
			return sqltext.QuoteIdent(s)
		}
	}
	if sqlKeywords[strings.ToUpper(s)] {
		return sqltext.QuoteIdent(s)
	}
	return s
}

func orAnd(s []string) string {
	if len(s) <= 1 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

func satMul(a, b int64) int64 {
	if a == 0 || b == 0 {
		return 0
	}
	if a > (1<<62)/b {
		return 1 << 62
	}
	return a * b
}
