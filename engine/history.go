package engine

import (
	"context"
	"time"
)

// HistoryEntry is one question (or direct query) and what became of it: the
// audit trail of the app, the command line and the MCP server.
type HistoryEntry struct {
	Time           time.Time `json:"time"`
	Database       string    `json:"database"`
	DatabaseSHA256 string    `json:"database_sha256"`
	Question       string    `json:"question"`
	SQL            string    `json:"sql"`
	// Status is "ok", or the error type of the final failure.
	Status    string  `json:"status"`
	RowCount  int     `json:"row_count"`
	DurationS float64 `json:"duration_s"`
	Model     string  `json:"model"`
	// Client names who asked: "cli", "app", "mcp:<client name>".
	Client string `json:"client"`
	// TimeToRowsS and ModelStats are the answer's: how long the rows took,
	// and what each model round cost (null for direct SQL).
	TimeToRowsS *float64    `json:"time_to_rows_s"`
	ModelStats  *ModelStats `json:"model_stats"`
	// Attempts is every try of the ask loop (not in the contract's history
	// document; kept for the audit).
	Attempts []Attempt `json:"-"`
	// FollowsUp is the question this one followed in its conversation ("":
	// it started one); kept for the app, not in the contract's document.
	FollowsUp string `json:"-"`
	// ID, Wrong and Name are the store's own (the app's history): the
	// entry's number, whether the user marked the answer wrong (it is then
	// never an example for the model again), the name it was saved under.
	ID    int64  `json:"-"`
	Wrong bool   `json:"-"`
	Name  string `json:"-"`
}

// History stores and lists HistoryEntry values, and finds past successful
// questions for the prompt's examples. engine/sqlite keeps it in a SQLite
// file in the data folder, never in the user's database.
type History interface {
	Record(ctx context.Context, e HistoryEntry) error
	// List returns the newest entries first; database "" lists every one.
	List(ctx context.Context, database string, limit int) ([]HistoryEntry, error)
	// Successes returns the successful question/SQL pairs asked of a
	// database (by its path or sha256), newest first, at most limit.
	Successes(ctx context.Context, database, sha256 string, limit int) ([]HistoryEntry, error)
}

// HistoryQuery selects entries of the history (the app's History; engine/sqlite's
// HistoryStore.Search).
type HistoryQuery struct {
	// Database "" selects every database's entries.
	Database string
	// Text, when set, keeps the entries whose question, SQL or name hold
	// every one of its words (case-insensitive).
	Text string
	// Saved keeps only the entries saved under a name.
	Saved bool
	// Limit is the most entries returned (default 100).
	Limit int
}
