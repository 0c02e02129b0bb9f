package verified

import (
	"context"
	"strings"
	"time"

	"querent/engine"
	"querent/engine/eval"
)

// ImportReport says what became of each item of an imported gold set.
type ImportReport struct {
	// Added are the items now verified answers of the database.
	Added []ImportedItem `json:"added"`
	// Skipped are the items left out: already verified, unanswerable, or
	// follow-ups (their question needs its conversation).
	Skipped []ImportedItem `json:"skipped"`
	// Refused are the items whose SQL the guard refused on the database
	// (with its error): they do not count.
	Refused []ImportedItem `json:"refused"`
}

// ImportedItem is one item of an import.
type ImportedItem struct {
	ID       string `json:"id"`
	Question string `json:"question"`
	// Reason says why an item was skipped.
	Reason string `json:"reason,omitempty"`
	// Error is why the guard refused an item.
	Error *engine.ErrorDoc `json:"error,omitempty"`
}

// Import adds the items of g to the history as verified answers of db
// (client names who brought them, for the history). Each item's SQL is
// checked by the guard on db first (compiled, read-only, one statement):
// an item it refuses does not count. An item already verified on db (the
// same question and SQL) is not added twice.
func Import(ctx context.Context, st Store, db engine.Database, g *eval.GoldSet, client string) (*ImportReport, error) {
	id := engine.IdentityOf(ctx, db)
	have, err := st.Verified(ctx, id, 100000)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, e := range have {
		seen[pairKey(e.Question, e.SQL)] = true
	}
	rep := &ImportReport{Added: []ImportedItem{}, Skipped: []ImportedItem{}, Refused: []ImportedItem{}}
	now := time.Now()
	for _, it := range g.Items {
		item := ImportedItem{ID: it.ID, Question: it.Question}
		switch {
		case !it.Answerable():
			item.Reason = "unanswerable: an example needs SQL"
		case it.Follows != "":
			item.Reason = "a follow-up: its question needs the conversation before it"
		case seen[pairKey(it.Question, it.SQL)]:
			item.Reason = "already verified on this database"
		}
		if item.Reason != "" {
			rep.Skipped = append(rep.Skipped, item)
			continue
		}
		if _, verr := db.Validate(ctx, it.SQL); verr != nil {
			if ctx.Err() != nil {
				return rep, engine.AsError(ctx.Err())
			}
			d := engine.NewErrorDoc(verr)
			item.Error = &d
			rep.Refused = append(rep.Refused, item)
			continue
		}
		e := engine.HistoryEntry{Time: now, Database: db.Name(), DatabaseSHA256: id.SHA256, SchemaSHA256: id.SchemaSHA256,
			Question: it.Question, SQL: it.SQL, Status: "ok", Client: client, Verified: engine.VerifiedApproved, VerifiedAt: now}
		if err := st.Record(ctx, e); err != nil {
			return rep, err
		}
		seen[pairKey(it.Question, it.SQL)] = true
		rep.Added = append(rep.Added, item)
	}
	return rep, nil
}

// pairKey is a question and its SQL as compared for duplicates: case and
// spacing aside.
func pairKey(question, sql string) string {
	return strings.ToLower(strings.Join(strings.Fields(question), " ")) + "\x00" + strings.Join(strings.Fields(sql), " ")
}
