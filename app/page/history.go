package page

import (
	"context"
	"strings"
	"time"

	"querent/engine"
)

// History is the history of questions and queries as the app shows it:
// searched, saved under a name, marked wrong, deleted.
type History struct{ a *app }

// HistoryEditor is what the History service needs of the store beyond
// engine.History (engine/sqlite's HistoryStore has it; wiring checks).
type HistoryEditor interface {
	Search(ctx context.Context, q engine.HistoryQuery) ([]engine.HistoryEntry, error)
	Delete(ctx context.Context, id int64) error
	SetWrong(ctx context.Context, id int64, wrong bool) error
	SetName(ctx context.Context, id int64, name string) error
}

// HistoryQuery is what the page's History asks for.
type HistoryQuery struct {
	// All lists every database's entries, not only the open one's.
	All bool `json:"all"`
	// Text keeps the entries whose question, SQL or name hold every word.
	Text string `json:"text"`
	// Saved keeps only the saved queries (those with a name).
	Saved bool `json:"saved"`
	// Limit is the most entries (default 200).
	Limit int `json:"limit"`
}

// HistoryItem is one entry of the history with what the app adds to it.
type HistoryItem struct {
	engine.HistoryEntry
	// ID identifies the entry for Delete, MarkWrong and Save.
	ID int64 `json:"id"`
	// Wrong: the user marked this answer wrong; it is never an example for
	// the model again.
	Wrong bool `json:"wrong"`
	// Name is the name the query was saved under ("": not saved).
	Name string `json:"name"`
	// FollowsUp is the question this one followed in its conversation.
	FollowsUp string `json:"follows_up"`
	// VerifiedAs is how the analyst verified the answer: "approved",
	// "corrected", or "" (not verified: never an example for the model).
	VerifiedAs string `json:"verified_as"`
}

func (h *History) editor(ctx context.Context) (HistoryEditor, error) {
	st := h.a.historyStore(ctx)
	ed, ok := st.(HistoryEditor)
	if !ok {
		return nil, engine.Errorf(engine.CodeInternal, "the history cannot be opened").WithHint("check that Querent's data folder can be written")
	}
	return ed, nil
}

// List returns the entries q selects, newest first: of the open database
// unless q.All.
func (h *History) List(q HistoryQuery) ([]HistoryItem, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out := []HistoryItem{}
	ed, err := h.editor(ctx)
	if err != nil {
		return out, nil // no history yet: nothing to list
	}
	sq := engine.HistoryQuery{Text: strings.TrimSpace(q.Text), Saved: q.Saved, Limit: q.Limit}
	if sq.Limit <= 0 {
		sq.Limit = 200
	}
	if !q.All {
		h.a.mu.Lock()
		if h.a.db != nil {
			sq.Database = h.a.db.Name()
		}
		h.a.mu.Unlock()
	}
	es, err := ed.Search(ctx, sq)
	if err != nil {
		return nil, err
	}
	for _, e := range es {
		out = append(out, historyItem(e))
	}
	return out, nil
}

// Delete removes an entry.
func (h *History) Delete(id int64) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ed, err := h.editor(ctx)
	if err != nil {
		return err
	}
	return ed.Delete(ctx, id)
}

// MarkWrong marks an answer wrong (wrong false: right again). A wrong
// answer is never used again as an example for the model.
func (h *History) MarkWrong(id int64, wrong bool) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ed, err := h.editor(ctx)
	if err != nil {
		return err
	}
	return ed.SetWrong(ctx, id, wrong)
}

// Save saves an entry's query under a name ("" takes it off the saved
// queries).
func (h *History) Save(id int64, name string) error {
	if len(name) > 200 {
		return engine.Errorf(engine.CodeUsage, "the name is %d characters long", len(name)).WithHint("a name of at most 200 characters")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ed, err := h.editor(ctx)
	if err != nil {
		return err
	}
	return ed.SetName(ctx, id, name)
}
