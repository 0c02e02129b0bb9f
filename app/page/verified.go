package page

import (
	"context"
	"time"

	"querent/engine"
	"querent/engine/verified"
)

// The analyst's verdict on an answer, from its card (issue 23): approve it
// (it is right) or correct it (the analyst's SQL, checked by the guard and
// run on the open database, replaces it). Only verified answers are the
// model's examples (engine/verified).

func (h *History) verifier(ctx context.Context) (verified.Store, error) {
	st, ok := h.a.historyStore(ctx).(verified.Store)
	if !ok {
		return nil, engine.Errorf(engine.CodeInternal, "the history cannot be opened").WithHint("check that Querent's data folder can be written")
	}
	return st, nil
}

// Approve marks the answer of entry id right: from now on it is an example
// for the model on its database.
func (h *History) Approve(id int64) (HistoryItem, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	st, err := h.verifier(ctx)
	if err != nil {
		return HistoryItem{}, err
	}
	e, err := verified.Approve(ctx, st, id)
	if err != nil {
		return HistoryItem{}, err
	}
	return historyItem(e), nil
}

// Correct replaces the answer of entry id by the result of sql, run on the
// open database under the guard and the settings' limits; SQL the guard or
// the database refuses is an error, and the entry stays as it was.
func (h *History) Correct(id int64, sql string) (*engine.Answer, error) {
	db, err := h.a.current()
	if err != nil {
		return nil, err
	}
	ctx, done := h.a.begin("ask")
	defer done()
	st, err := h.verifier(ctx)
	if err != nil {
		return nil, err
	}
	set := h.a.settings()
	_, ans, err := verified.Correct(ctx, st, db, id, sql, engine.RunOptions{MaxRows: set.MaxRows, Timeout: set.timeout()})
	if err != nil {
		return nil, err
	}
	return pageAnswer(ans), nil
}

func historyItem(e engine.HistoryEntry) HistoryItem {
	return HistoryItem{HistoryEntry: e, ID: e.ID, Wrong: e.Wrong, Name: e.Name, FollowsUp: e.FollowsUp, VerifiedAs: e.Verified}
}
