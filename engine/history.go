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
