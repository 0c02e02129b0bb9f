package sqlite

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	"querent/engine/adapter"
	"querent/engine/sqltext"
	"querent/engine/text"

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
	plan, err := d.queryPlanLocked(ctx, v.SQL)
	if err != nil {
		return nil, err
	}
	idx, err := d.nameIndexLocked(ctx)
	if err != nil {
		return nil, err
	}
	_, aliases := queryTables(v.SQL, idx)
	r := &planReader{d: d, ctx: ctx, idx: idx, aliases: aliases, clauses: clauseColumns(v.SQL),
		large: d.opts.LargeTableRows, scansByParent: map[int64][]string{}}
	for _, row := range plan {
		r.row(row)
	}
	r.joins()
	return r.hints.List(), nil
}

// queryPlanLocked runs EXPLAIN QUERY PLAN for sql, under a deadline of its
// own.
func (d *DB) queryPlanLocked(ctx context.Context, sql string) ([]planRow, error) {
	tctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	d.auth.reset(policyQuery)
	rows, err := d.conn.QueryContext(tctx, "EXPLAIN QUERY PLAN "+sql)
	if err != nil {
		return nil, d.runError(ctx, tctx, sql, sql, 5*time.Second, err)
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
	return plan, nil
}

// planReader reads a query plan's rows into hints: what makes the query
// slow on tables of at least large rows, and what would help.
type planReader struct {
	d       *DB
	ctx     context.Context
	idx     *adapter.Names
	aliases map[string]string   // the query's aliases, lower-cased, to their tables
	clauses map[string][]string // the names each clause cites (clauseColumns)
	large   int64
	hints   adapter.Hints
	// maxScanned is the most rows of a table the plan scans so far;
	// scansByParent the tables scanned under each plan row (table, then
	// the name the plan gives it, joined by a NUL), for the joins.
	maxScanned    int64
	scansByParent map[int64][]string
}

// resolve is the table a plan's name stands for (an alias, or a table of
// the database), "" for another name (a view, a subquery).
func (r *planReader) resolve(name string) string {
	if t, ok := r.aliases[strings.ToLower(name)]; ok {
		return t
	}
	if tn := r.idx.Table(name); tn != nil && tn.Kind == "table" {
		return tn.Name
	}
	return ""
}

// row reads one row of the plan.
func (r *planReader) row(p planRow) {
	if m := reScan.FindStringSubmatch(p.detail); m != nil {
		r.scan(p, m)
		return
	}
	if m := reAutoIndex.FindStringSubmatch(p.detail); m != nil {
		r.autoIndex(p, m)
		return
	}
	if m := reTempTree.FindStringSubmatch(p.detail); m != nil {
		r.tempTree(m[1])
		return
	}
	if reCorrel.MatchString(p.detail) {
		r.hints.Add("a correlated subquery runs once for every row of the outer query; a JOIN with GROUP BY, or a window function, computes the same in one pass")
	}
}

// scan reads a full scan of a table (m: reScan's match): large and
// filtered, an index would help; large and unfiltered, a WHERE or LIMIT.
func (r *planReader) scan(p planRow, m []string) {
	t := r.resolve(m[1])
	if t == "" {
		return
	}
	n := r.d.rowCountLocked(r.ctx, t)
	r.maxScanned = max(r.maxScanned, n)
	r.scansByParent[p.parent] = append(r.scansByParent[p.parent], t+"\x00"+m[1])
	if n < r.large {
		return
	}
	filtered := columnsOf(r.clauses["WHERE"], t, r.idx)
	if len(filtered) > 0 {
		r.hints.Add("full scan of %s (%s rows) although the query filters it on %s: an index would let SQLite read only the matching rows — %s "+
			"(the file's owner can add it; Querent never changes the file)",
			t, engine.GroupThousands(n), strings.Join(filtered, ", "), createIndex(t, filtered))
	} else {
		r.hints.Add("reads all %s rows of %s (no WHERE filter on it); if only part of it is needed, filter with WHERE or stop early with LIMIT",
			engine.GroupThousands(n), t)
	}
}

// autoIndex reads an automatic index SQLite builds for a join (m:
// reAutoIndex's match): a permanent one would make it faster.
func (r *planReader) autoIndex(p planRow, m []string) {
	table, cols := m[1], m[2]
	if table == "" {
		if s := reSearchOn.FindStringSubmatch(p.detail); s != nil {
			table = s[1]
		}
		cols = m[3]
	}
	t := r.resolve(table)
	if t == "" {
		t = table
	}
	names := planColumns(cols)
	r.hints.Add("SQLite builds a temporary index on %s(%s) every time this query runs, because no index fits the join; "+
		"a permanent one would make it faster — %s (the file's owner can add it)", t, strings.Join(names, ", "), createIndex(t, names))
}

// tempTree reads a sort in a temporary B-tree for what, after a scan of a
// large table: an index would give the rows in order.
func (r *planReader) tempTree(what string) {
	if r.maxScanned < r.large {
		return
	}
	clause := "ORDER BY"
	if strings.HasPrefix(what, "GROUP BY") {
		clause = "GROUP BY"
	} else if strings.HasPrefix(what, "DISTINCT") {
		clause = "DISTINCT"
	}
	r.hints.Add("sorts up to %s rows in a temporary B-tree for %s; an index on the %s column(s) would give the rows already in order",
		engine.GroupThousands(r.maxScanned), what, clause)
}

// joins reads the tables scanned side by side under one plan row: with
// many combinations, a join without a condition SQLite can use.
func (r *planReader) joins() {
	hasJoinCondition := len(r.clauses["ON"]) > 0 || len(r.clauses["USING"]) > 0 || len(r.clauses["WHERE"]) > 0
	for _, scans := range r.scansByParent {
		if len(scans) < 2 {
			continue
		}
		product := int64(1)
		var names []string
		for _, s := range scans {
			t, alias, _ := strings.Cut(s, "\x00")
			product = satMul(product, r.d.rowCountLocked(r.ctx, t))
			if alias != t {
				names = append(names, t+" "+alias)
			} else {
				names = append(names, t)
			}
		}
		if product < r.large {
			continue
		}
		if hasJoinCondition {
			r.hints.Add("%s are joined without an equality condition SQLite can use: each row of one is compared with every row of the other (%s combinations); "+
				"join on key columns (ON a.key = b.key)", orAnd(names), engine.GroupThousands(product))
		} else {
			r.hints.Add("%s are joined without a join condition (a cartesian product: %s combinations); add ON a.key = b.key, "+
				"or JOIN … USING (key), for the columns that link them", orAnd(names), engine.GroupThousands(product))
		}
	}
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
