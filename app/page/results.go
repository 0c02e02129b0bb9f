package page

import (
	"context"
	"time"

	"querent/engine"
	"querent/engine/ask"
	"querent/engine/describe"
)

// Results runs SQL directly (the SQL editor's Run button, a table's
// preview, a question from the history run again).
type Results struct{ a *app }

// PreviewRows is how many rows a table's preview shows at first; the page
// pages through the rest with Page.
const PreviewRows = 1000

// Run runs one read-only SQL query on the open database. Like questions, the
// answer carries its errors; the error return is for a query that could not
// be run at all (no database).
func (r *Results) Run(sql string) (*engine.Answer, error) {
	db, err := r.a.current()
	if err != nil {
		return nil, err
	}
	r.a.cancel("count") // a count of the previous result would hold this one up
	ctx, done := r.a.begin("ask")
	defer done()
	set := r.a.settings()
	return pageAnswer(runAnswer(ctx, db, sql, set.MaxRows, set.timeout(), r.a)), nil
}

// Preview shows the first rows of a table or view (PreviewRows; the answer
// is truncated when there are more, and Page reads the next ones).
func (r *Results) Preview(table string) (*engine.Answer, error) {
	db, err := r.a.current()
	if err != nil {
		return nil, err
	}
	r.a.cancel("count")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	sql := "SELECT * FROM " + quoteIdent(table)
	return pageAnswer(runAnswer(ctx, db, sql, PreviewRows, 30*time.Second, nil)), nil
}

// PageRequest asks for some rows of a query's result past those shown.
type PageRequest struct {
	SQL string `json:"sql"`
	// Offset is how many of the result's first rows to skip (those shown).
	Offset int `json:"offset"`
	// Limit is how many rows to return (default 1,000, at most the row
	// ceiling).
	Limit int `json:"limit"`
}

// Page returns rows Offset+1 … Offset+Limit of a query's result: "load the
// next 1,000" of a truncated answer, the next page of a table's preview.
// The answer's rows are those rows (Truncated: more follow); its
// statistics are theirs. It is not recorded in the history.
func (r *Results) Page(req PageRequest) (*engine.Answer, error) {
	db, err := r.a.current()
	if err != nil {
		return nil, err
	}
	if req.Offset < 0 {
		return nil, engine.Errorf(engine.CodeUsage, "the offset must not be negative")
	}
	if req.Limit <= 0 {
		req.Limit = PreviewRows
	}
	req.Limit = min(req.Limit, engine.MaxRowsInMemory)
	ctx, done := r.a.begin("page")
	defer done()
	set := r.a.settings()
	ans := engine.NewAnswer(req.SQL)
	res, err := db.Run(ctx, req.SQL, engine.RunOptions{MaxRows: req.Limit, Offset: req.Offset, Timeout: set.timeout()})
	if err != nil {
		ans.AddError(err)
		return pageAnswer(ans), nil
	}
	describe.SetResult(ans, res)
	return pageAnswer(ans), nil
}

// CountResult is the number of rows a query's whole result has.
type CountResult struct {
	Rows    int64   `json:"rows"`
	Elapsed float64 `json:"elapsed_s"`
}

// Count counts the rows of a query's whole result, for a truncated answer
// ("1,000 of 3,503 rows"). It runs in the background of the page, under the
// settings' timeout; CancelCount (or running another query) stops it.
func (r *Results) Count(sql string) (*CountResult, error) {
	db, err := r.a.current()
	if err != nil {
		return nil, err
	}
	ctx, done := r.a.begin("count")
	defer done()
	start := time.Now()
	n, err := ask.CountRows(ctx, db, sql, r.a.settings().timeout())
	if err != nil {
		return nil, err
	}
	return &CountResult{Rows: n, Elapsed: engine.Seconds(time.Since(start))}, nil
}

// CancelCount stops a running Count.
func (r *Results) CancelCount() error {
	r.a.cancel("count")
	return nil
}

// Cancel stops a running query.
func (r *Results) Cancel() error {
	r.a.cancel("ask")
	return nil
}

// runAnswer runs SQL into an answer document, recording it in the history
// when a is set.
func runAnswer(ctx context.Context, db engine.Database, sql string, maxRows int, timeout time.Duration, a *app) *engine.Answer {
	ans, err := ask.RunSQL(ctx, db, sql, engine.RunOptions{MaxRows: maxRows, Timeout: timeout})
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
