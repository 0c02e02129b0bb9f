package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strings"
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
	// SchemaSHA256 identifies the database's tables and columns when the
	// question was asked (SchemaIdentity): the same database after its
	// rows changed, or a copy of it, has the same. The store's own.
	SchemaSHA256 string `json:"-"`
	// Verified is how the analyst vouched for the answer: "" (not yet),
	// VerifiedApproved or VerifiedCorrected. Only verified answers are
	// examples for the model (History.Verified). The store's own.
	Verified   string    `json:"-"`
	VerifiedAt time.Time `json:"-"`
	// OriginalSQL is the SQL the model wrote, kept when the analyst
	// corrected it (SQL is then the correction). The store's own.
	OriginalSQL string `json:"-"`
}

// How an answer was verified (HistoryEntry.Verified, the answer's
// examples_used[].verified_as).
const (
	VerifiedApproved  = "approved"
	VerifiedCorrected = "corrected"
)

// ExampleUsed is a verified question and its SQL that a prompt quoted to
// the model as an example (the answer's examples_used).
type ExampleUsed struct {
	// ID is the history entry's id (querent history --format json).
	ID       int64  `json:"id"`
	Question string `json:"question"`
	SQL      string `json:"sql"`
	// VerifiedAs is VerifiedApproved or VerifiedCorrected.
	VerifiedAs string `json:"verified_as"`
}

// DatabaseIdentity is what the verified examples of a database are found
// by: the file's sha256 (or quick identity), and the identity of its tables
// and columns. Never its path: another file at the same path is another
// database, and a copy elsewhere is the same one.
type DatabaseIdentity struct {
	SHA256       string
	SchemaSHA256 string
}

// IdentityOf is db's identity for its verified answers: the file's sha256
// (or quick identity) where db is a file (Fingerprinter), and its schema's
// identity.
func IdentityOf(ctx context.Context, db Database) DatabaseIdentity {
	var id DatabaseIdentity
	if f, ok := db.(Fingerprinter); ok {
		id.SHA256, _ = f.SHA256(ctx)
	}
	if s, err := db.Schema(ctx); err == nil {
		id.SchemaSHA256 = SchemaIdentity(s)
	}
	return id
}

// Same reports whether the entry e was asked of the database id
// identifies: the same file (sha256), or the same tables and columns. An
// entry recorded before Querent kept the schema's identity has only its
// sha256, which changes with every new row: it matches the database at the
// same path (the only identity it has).
func (id DatabaseIdentity) Same(e HistoryEntry, path string) bool {
	switch {
	case e.DatabaseSHA256 != "" && e.DatabaseSHA256 == id.SHA256:
		return true
	case e.SchemaSHA256 != "":
		return e.SchemaSHA256 == id.SchemaSHA256
	}
	return e.Database == path
}

// SchemaIdentity is the hex sha256 of a schema's tables and views (not
// Querent's internal ones) and their columns' names and declared types, in
// order of name: it stays the same while only the rows change, so the
// verified SQL of a database still applies after new rows came in.
func SchemaIdentity(s *Schema) string {
	if s == nil {
		return ""
	}
	var lines []string
	for _, t := range s.Tables {
		if t.Internal {
			continue
		}
		cols := make([]string, 0, len(t.Columns))
		for _, c := range t.Columns {
			cols = append(cols, strings.ToLower(c.Name)+" "+strings.ToUpper(c.Type))
		}
		lines = append(lines, strings.ToLower(t.Name)+"("+strings.Join(cols, ",")+")")
	}
	if len(lines) == 0 {
		return ""
	}
	sort.Strings(lines)
	sum := sha256.Sum256([]byte(strings.Join(lines, "\n")))
	return hex.EncodeToString(sum[:])
}

// History stores and lists HistoryEntry values, and finds past successful
// questions for the prompt's examples. engine/sqlite keeps it in a SQLite
// file in the data folder, never in the user's database.
type History interface {
	Record(ctx context.Context, e HistoryEntry) error
	// List returns the newest entries first; database "" lists every one.
	List(ctx context.Context, database string, limit int) ([]HistoryEntry, error)
	// Verified returns the answers the analyst approved or corrected on
	// the database id identifies (its sha256, or the same tables and
	// columns; never by path), newest first, at most limit, one per
	// question: the only answers the prompt quotes as examples.
	Verified(ctx context.Context, id DatabaseIdentity, limit int) ([]HistoryEntry, error)
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
