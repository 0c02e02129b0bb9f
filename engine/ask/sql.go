package ask

import (
	"context"
	"time"

	"querent/engine"
	"querent/engine/describe"
	"querent/engine/sqltext"
)

// hintsTimeout bounds reading a query's plan for its hints (they are
// advice: an answer does not wait long for them).
const hintsTimeout = 5 * time.Second

// RunSQL answers SQL written by the analyst or an agent, without a model:
// the query run through the database's guard (opts: the row cap, the
// timeout), the answer's rows, statistics, chart suggestion and attempts,
// the connection's warnings, and the plan's hints. Every face that runs
// direct SQL answers with it (the command line's sql, the page's Results,
// MCP's run_query). A failed run is the answer's error and err (the answer
// keeps the attempt).
func RunSQL(ctx context.Context, db engine.Database, sql string, opts engine.RunOptions) (*engine.Answer, error) {
	ans := engine.NewAnswer(sql)
	ans.Warn(engine.DatabaseWarnings(db)...)
	res, err := db.Run(ctx, sql, opts)
	if err != nil {
		e := engine.AsError(err)
		ans.Attempts = append(ans.Attempts, engine.Attempt{SQL: sql, Error: &engine.AttemptError{Type: e.Code, Message: e.Message}})
		ans.AddError(err)
		return ans, err
	}
	describe.SetResult(ans, res)
	ans.Attempts = append(ans.Attempts, engine.Attempt{SQL: sql})
	addHints(ctx, db, ans, sql)
	return ans, nil
}

// addHints adds the plan's hints for sql to the answer, within
// hintsTimeout; a plan that cannot be read gives none.
func addHints(ctx context.Context, db engine.Database, ans *engine.Answer, sql string) {
	hctx, cancel := context.WithTimeout(ctx, hintsTimeout)
	defer cancel()
	if hints, err := db.Explain(hctx, sql); err == nil && len(hints) > 0 {
		ans.OptimizationHints = hints
	}
}

// CountRows counts the rows of sql's whole result (beyond any row cap),
// through the same guard: the count is one more read-only SELECT over the
// query, checked like any other.
func CountRows(ctx context.Context, db engine.Database, sql string, timeout time.Duration) (int64, error) {
	st := sqltext.Split(sql)
	if len(st) != 1 {
		return 0, engine.Errorf(engine.CodeUsage, "the query holds %d statements", len(st)).WithHint("count the rows of one query at a time")
	}
	inner := sql[st[0].Start:st[0].End]
	res, err := db.Run(ctx, "SELECT count(*) FROM (\n"+inner+"\n)", engine.RunOptions{MaxRows: 1, Timeout: timeout})
	if err != nil {
		return 0, err
	}
	if len(res.Rows) != 1 || len(res.Rows[0]) != 1 {
		return 0, engine.Errorf(engine.CodeInternal, "the count returned no row")
	}
	n, ok := res.Rows[0][0].(int64)
	if !ok {
		return 0, engine.Errorf(engine.CodeInternal, "the count returned %v", res.Rows[0][0])
	}
	return n, nil
}
