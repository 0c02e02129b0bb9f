package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"time"

	"querent/engine/adapter"

	"querent/engine/text"

	"github.com/jackc/pgx/v5/pgconn"

	"querent/engine"
)

// explainTimeout bounds planning a statement for its hints.
const explainTimeout = 5 * time.Second

// planNode is one node of EXPLAIN (FORMAT JSON).
type planNode struct {
	NodeType     string     `json:"Node Type"`
	Relation     string     `json:"Relation Name"`
	Alias        string     `json:"Alias"`
	Rows         float64    `json:"Plan Rows"`
	Width        float64    `json:"Plan Width"`
	Filter       string     `json:"Filter"`
	JoinFilter   string     `json:"Join Filter"`
	IndexCond    string     `json:"Index Cond"`
	HashCond     string     `json:"Hash Cond"`
	MergeCond    string     `json:"Merge Cond"`
	SortKey      []string   `json:"Sort Key"`
	Parent       string     `json:"Parent Relationship"`
	Strategy     string     `json:"Strategy"`
	Plans        []planNode `json:"Plans"`
	SubplanName  string     `json:"Subplan Name"`
	PartialMode  string     `json:"Partial Mode"`
	ParallelWork bool       `json:"Parallel Aware"`
}

// Explain returns query-plan hints for query from the server's own plan
// (EXPLAIN (FORMAT JSON), never ANALYZE: nothing runs), in a read-only
// transaction: full scans of large tables that the query filters, joins
// without a join condition, sorts and hash tables larger than work_mem
// (they spill to temporary files), and results far larger than the row cap.
// A query PostgreSQL can answer well gets no hints.
func (d *DB) Explain(ctx context.Context, query string) ([]string, error) {
	var hints []string
	err := d.withLock(ctx, func() error {
		a, err := d.analyzeLocked(ctx, query)
		if err != nil {
			return err
		}
		var plan []byte
		err = d.runLocked(ctx, envelope{sql: a.sql, timeout: explainTimeout, query: query, a: a, explain: true,
			fields: func([]pgconn.FieldDescription) error { return nil },
			row: func(v [][]byte) error {
				if len(v) == 1 {
					plan = append([]byte(nil), v[0]...)
				}
				return nil
			}})
		if err != nil {
			return d.runFailure(ctx, query, a, 0, explainTimeout, err)
		}
		var doc []struct {
			Plan planNode `json:"Plan"`
		}
		if err := json.Unmarshal(plan, &doc); err != nil || len(doc) == 0 {
			return nil // no plan to read: no hints
		}
		idx, _ := d.nameIndexLocked(ctx)
		hints = d.planHints(doc[0].Plan, idx)
		return nil
	})
	if err != nil {
		return nil, engine.AsError(err)
	}
	return hints, nil
}

var reIdent = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_$]*|"(?:[^"]|"")+"`)

func (d *DB) planHints(root planNode, idx *adapter.Names) []string {
	var hints adapter.Hints
	add := hints.Add
	large := float64(d.opts.LargeTableRows)
	tableRows := func(rel string) (float64, *adapter.TableNames) {
		if idx == nil || rel == "" {
			return -1, nil
		}
		tn := idx.Table(rel)
		if tn == nil {
			return -1, nil
		}
		return tn.Rows, tn
	}
	var visit func(n planNode, parentRows float64)
	visit = func(n planNode, parentRows float64) {
		switch n.NodeType {
		case "Seq Scan":
			rows, tn := tableRows(n.Relation)
			if tn != nil && rows >= large && n.Filter != "" && n.Rows < rows/10 {
				cols := filterColumns(n.Filter, tn.Columns)
				if len(cols) > 0 {
					add("full scan of %s (about %s rows) although the query keeps only about %s of them (%s): an index would let PostgreSQL read only the matching rows — %s "+
						"(the database's owner can add it; Querent never changes the database)",
						n.Relation, engine.GroupThousands(int64(rows)), engine.GroupThousands(int64(n.Rows)), strings.Join(cols, ", "), createIndex(n.Relation, cols))
				}
			}
		case "Nested Loop":
			if len(n.Plans) == 2 && n.JoinFilter == "" {
				outer, inner := n.Plans[0], n.Plans[1]
				product := outer.Rows * inner.Rows
				if outer.Rows > 1 && inner.Rows > 1 && product >= large && n.Rows >= 0.9*product && !hasCondition(inner) {
					add("%s and %s are joined without a join condition (a cartesian product: about %s combinations); add ON a.key = b.key, "+
						"or JOIN … USING (key), for the columns that link them",
						relationOf(outer), relationOf(inner), engine.GroupThousands(int64(product)))
				}
			}
		case "Sort":
			if bytes := n.Rows * n.Width; d.server.workMem > 0 && bytes > float64(d.server.workMem) && n.Rows >= large {
				add("sorts about %s rows (about %s) for %s, more than work_mem (%s): PostgreSQL will spill the sort to temporary files; "+
					"an index on the sort key, fewer or narrower columns, or a LIMIT keeps it in memory",
					engine.GroupThousands(int64(n.Rows)), engine.FormatSize(int64(bytes)), strings.Join(n.SortKey, ", "), engine.FormatSize(d.server.workMem))
			}
		case "Hash":
			if bytes := n.Rows * n.Width; d.server.workMem > 0 && bytes > 2*float64(d.server.workMem) && n.Rows >= large {
				add("builds a hash table of about %s rows (about %s) for a join, more than work_mem allows (%s): PostgreSQL will split it in batches on disk; "+
					"filter the joined table first or join fewer columns", engine.GroupThousands(int64(n.Rows)), engine.FormatSize(int64(bytes)), engine.FormatSize(d.server.workMem))
			}
		}
		if n.Parent == "SubPlan" && parentRows >= large && !strings.HasPrefix(n.SubplanName, "InitPlan") {
			add("a correlated subquery runs once for every row of the outer query (about %s times); a JOIN with GROUP BY, or a window function, computes the same in one pass",
				engine.GroupThousands(int64(parentRows)))
		}
		for _, c := range n.Plans {
			visit(c, n.Rows)
		}
	}
	visit(root, 0)
	if capRows := float64(engine.DefaultMaxRows); root.Rows >= 10*capRows && root.Rows >= large {
		add("PostgreSQL expects about %s rows; only the first %s are shown: aggregate (GROUP BY), filter (WHERE) or add LIMIT",
			engine.GroupThousands(int64(root.Rows)), engine.GroupThousands(int64(capRows)))
	}
	return hints.List()
}

// hasCondition reports whether a join's inner side is parameterized or
// filtered (an index lookup or a filter on the outer row), so that the join
// is not a cartesian product.
func hasCondition(n planNode) bool {
	if n.IndexCond != "" || n.Filter != "" || n.HashCond != "" || n.MergeCond != "" || n.JoinFilter != "" {
		return true
	}
	for _, c := range n.Plans {
		if hasCondition(c) {
			return true
		}
	}
	return false
}

// relationOf names the first relation under a plan node.
func relationOf(n planNode) string {
	if n.Relation != "" {
		if n.Alias != "" && n.Alias != n.Relation {
			return n.Relation + " " + n.Alias
		}
		return n.Relation
	}
	for _, c := range n.Plans {
		if r := relationOf(c); r != "" {
			return r
		}
	}
	return "a subquery"
}

// filterColumns finds the table's columns named in a plan's filter text.
func filterColumns(filter string, columns []string) []string {
	var out []string
	for _, w := range reIdent.FindAllString(filter, -1) {
		name := w
		if strings.HasPrefix(w, `"`) {
			name = strings.ReplaceAll(w[1:len(w)-1], `""`, `"`)
		}
		for _, c := range columns {
			if c == name && !text.ContainsFold(out, c) {
				out = append(out, c)
			}
		}
	}
	return out
}

func createIndex(table string, cols []string) string {
	quoted := make([]string, len(cols))
	for i, c := range cols {
		quoted[i] = ident(c)
	}
	return fmt.Sprintf("CREATE INDEX ON %s (%s)", table, strings.Join(quoted, ", "))
}
