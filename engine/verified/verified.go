// Package verified is how the analyst teaches Querent (issue 23): an answer
// in the history is approved (it is right) or corrected (the analyst gives
// the right SQL, which the guard checks and the database runs). Only such
// verified answers are the prompt's examples (engine/ask), and together
// they are the database's own gold set: scored by querent eval --gold
// verified, written to and read from a file of the eval's gold format so
// that a team shares them.
//
// Only the analyst verifies: the command line and the page call this
// package; the MCP server and the sub-agent contract never do.
package verified

import (
	"context"
	"fmt"
	"strings"
	"time"

	"querent/engine"
	"querent/engine/ask"
	"querent/engine/eval"
	"querent/engine/words"
)

// Store is what verifying needs of the history (engine/sqlite's
// HistoryStore has it).
type Store interface {
	engine.History
	// Get returns one entry (a usage error when there is none).
	Get(ctx context.Context, id int64) (engine.HistoryEntry, error)
	// SetVerified records e.Verified and, for a correction, e's new SQL,
	// row count and identity.
	SetVerified(ctx context.Context, e engine.HistoryEntry) error
}

// GoldName is the name of the verified answers' gold set: querent eval
// --gold verified.
const GoldName = "verified"

// Approve records that the answer of entry id is right: from now on it is
// an example for the model on its database.
func Approve(ctx context.Context, st Store, id int64) (engine.HistoryEntry, error) {
	e, err := st.Get(ctx, id)
	if err != nil {
		return e, err
	}
	if err := questionOf(e); err != nil {
		return e, err
	}
	if e.Status != "ok" || strings.TrimSpace(e.SQL) == "" {
		return e, engine.Errorf(engine.CodeUsage, "entry %d has no answer to approve: it ended in %s", id, statusText(e.Status)).SayHint(
			words.New("hint.approve_ran", words.History.With(words.Value(fmt.Sprintf("correct --sql SQL %d", id)))))
	}
	e.Verified, e.VerifiedAt = engine.VerifiedApproved, time.Now()
	return e, st.SetVerified(ctx, e)
}

// Correct replaces the answer of entry id by the result of sql, run on db
// under the guard (opts bound it as for querent sql): db must be the
// database the question was asked of (by its identity: the same file, or
// the same tables and columns). SQL the guard refuses, that does not
// compile or that fails is refused with the database's own error, and the
// entry is left as it was. The model's SQL is kept (OriginalSQL).
func Correct(ctx context.Context, st Store, db engine.Database, id int64, sql string, opts engine.RunOptions) (engine.HistoryEntry, *engine.Answer, error) {
	e, err := st.Get(ctx, id)
	if err != nil {
		return e, nil, err
	}
	if err := questionOf(e); err != nil {
		return e, nil, err
	}
	dbID := engine.IdentityOf(ctx, db)
	if !dbID.Same(e, db.Name()) {
		return e, nil, engine.Errorf(engine.CodeUsage, "entry %d was asked of another database than %s (%s): its tables and columns differ", id, db.Name(), e.Database).SayHint(
			words.New("hint.moved_database", words.DB.With("FILE")))
	}
	sql = strings.TrimSpace(sql)
	ans, rerr := ask.RunSQL(ctx, db, sql, opts)
	if rerr != nil {
		return e, ans, refused(id, rerr)
	}
	if e.OriginalSQL == "" && e.SQL != sql {
		e.OriginalSQL = e.SQL
	}
	e.SQL, e.RowCount, e.Status = sql, ans.RowCount, "ok"
	e.DatabaseSHA256, e.SchemaSHA256 = dbID.SHA256, dbID.SchemaSHA256
	e.Verified, e.VerifiedAt = engine.VerifiedCorrected, time.Now()
	if err := st.SetVerified(ctx, e); err != nil {
		return e, ans, err
	}
	return e, ans, nil
}

// refused is the error of a correction the guard or the database refused:
// the database's own error (its code, position and hint: a missing column
// names the closest ones), said as the correction's.
func refused(id int64, err error) error {
	d := engine.AsError(err)
	inner := d.MessageWords
	if inner.IsZero() {
		inner = words.Plain(d.Message)
	}
	e := engine.QuerySay(d.Code, d.Query, d.Position, words.New("verified.correction_refused", words.Value(fmt.Sprint(id)), inner))
	e.Hint, e.HintWords, e.Err = d.Hint, d.HintWords, err
	return e
}

// questionOf refuses an entry without a question (direct SQL): an example
// pairs a question with its SQL.
func questionOf(e engine.HistoryEntry) error {
	if strings.TrimSpace(e.Question) != "" {
		return nil
	}
	return engine.Errorf(engine.CodeUsage, "entry %d is a query run directly, without a question", e.ID).WithHint(
		"approve or correct the answer to a question: an example pairs a question with its SQL")
}

func statusText(status string) string {
	if status == "" {
		return "no result"
	}
	return "an error (" + status + ")"
}

// Gold returns the verified answers of db as a gold set (oldest first):
// each item's expected result is what its SQL returns on db now, so the
// set follows the database's rows as they change.
func Gold(ctx context.Context, st Store, db engine.Database) (*eval.GoldSet, error) {
	es, err := st.Verified(ctx, engine.IdentityOf(ctx, db), 100000)
	if err != nil {
		return nil, err
	}
	if len(es) == 0 {
		return nil, engine.Errorf(engine.CodeUsage, "%s has no verified answers yet", db.Name()).SayHint(words.New("hint.approve_first",
			words.History.With(words.Value("approve ID")), words.History.With(words.Value("--format json")), words.History.With(words.Value("correct --sql SQL ID"))))
	}
	g := &eval.GoldSet{Name: GoldName, Source: "the history's verified answers", Database: baseName(db.Name())}
	for i := len(es) - 1; i >= 0; i-- {
		e := es[i]
		g.Items = append(g.Items, &eval.Item{ID: fmt.Sprintf("verified-%d", e.ID), Question: e.Question, SQL: e.SQL, Difficulty: difficulty(e.SQL)})
	}
	return g, nil
}

// Export is the verified answers of db in the eval's gold format (TOML).
func Export(ctx context.Context, st Store, db engine.Database, now time.Time) ([]byte, int, error) {
	g, err := Gold(ctx, st, db)
	if err != nil {
		return nil, 0, err
	}
	header := []string{
		fmt.Sprintf("The verified answers (approved or corrected by the analyst) of %s, exported by Querent on %s.", baseName(db.Name()), now.Format("2006-01-02")),
		"A gold set: querent eval --db DB --gold FILE scores a model on it; querent history import-verified --db DB FILE adds them to another history.",
	}
	return eval.FormatTOML(g, header), len(g.Items), nil
}

// difficulty guesses an item's difficulty from its SQL (the gold format
// requires one): a query on one table is easy, one with a join or a
// grouping medium, one with several joins or a subquery hard.
func difficulty(sql string) string {
	u := " " + strings.ToUpper(strings.Join(strings.Fields(sql), " ")) + " "
	joins := strings.Count(u, " JOIN ")
	switch {
	case joins >= 2 || strings.Count(u, "SELECT ") > 1:
		return "hard"
	case joins == 1 || strings.Contains(u, " GROUP BY "):
		return "medium"
	}
	return "easy"
}

func baseName(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		return name[i+1:]
	}
	return name
}
