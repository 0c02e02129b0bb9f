package desktop

import (
	"context"
	"fmt"
	"time"

	"querent/engine"
)

// Results runs SQL directly (the SQL editor's Run button, a table's
// preview, a question from the history run again).
type Results struct{ a *app }

// Run runs one read-only SQL query on the open database. Like questions, the
// answer carries its errors; the error return is for a query that could not
// be run at all (no database).
func (r *Results) Run(sql string) (*engine.Answer, error) {
	db, err := r.a.current()
	if err != nil {
		return nil, err
	}
	ctx, done := r.a.begin("ask")
	defer done()
	set := r.a.settings()
	return pageAnswer(runAnswer(ctx, db, sql, set.MaxRows, set.timeout(), r.a)), nil
}

// Preview shows the first 200 rows of a table or view.
func (r *Results) Preview(table string) (*engine.Answer, error) {
	db, err := r.a.current()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	sql := fmt.Sprintf("SELECT * FROM %s LIMIT 200", quoteIdent(table))
	return pageAnswer(runAnswer(ctx, db, sql, 200, 30*time.Second, nil)), nil
}

// Cancel stops a running query.
func (r *Results) Cancel() error {
	r.a.cancel("ask")
	return nil
}

// runAnswer runs SQL into an answer document, recording it in the history
// when a is set.
func runAnswer(ctx context.Context, db engine.Database, sql string, maxRows int, timeout time.Duration, a *app) *engine.Answer {
	ans := engine.NewAnswer(sql)
	ans.Warnings = append(ans.Warnings, db.Warnings()...)
	res, err := db.Run(ctx, sql, engine.RunOptions{MaxRows: maxRows, Timeout: timeout})
	if err != nil {
		e := engine.AsError(err)
		ans.Attempts = append(ans.Attempts, engine.Attempt{SQL: sql, Error: &engine.AttemptError{Type: e.Code, Message: e.Message}})
		ans.AddError(err)
	} else {
		ans.SetResult(res)
		ans.Attempts = append(ans.Attempts, engine.Attempt{SQL: sql})
		hctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		if hints, herr := db.Explain(hctx, sql); herr == nil && len(hints) > 0 {
			ans.OptimizationHints = hints
		}
		cancel()
	}
	if a != nil {
		if h := a.historyStore(ctx); h != nil {
			e := engine.HistoryEntry{Time: time.Now(), Database: db.Name(), SQL: sql, Status: "ok", RowCount: ans.RowCount,
				DurationS: ans.ExecutionTimeS, Client: "app"}
			if err != nil {
				e.Status = engine.ErrorCode(err)
			}
			if f, ok := db.(engine.Fingerprinter); ok {
				e.DatabaseSHA256, _ = f.SHA256(ctx)
			}
			_ = h.Record(context.WithoutCancel(ctx), e)
		}
	}
	return ans
}

func quoteIdent(s string) string {
	out := []byte{'"'}
	for i := 0; i < len(s); i++ {
		if s[i] == '"' {
			out = append(out, '"')
		}
		out = append(out, s[i])
	}
	return string(append(out, '"'))
}
