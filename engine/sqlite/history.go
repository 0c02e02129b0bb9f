package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"querent/engine"
	"querent/engine/words"
)

// HistoryStore is the history of questions and queries, kept in its own
// SQLite file in Querent's data folder (never in the user's database). It
// is safe for several processes: SQLite locks the file, and writers wait.
type HistoryStore struct {
	path string
	db   *sql.DB
}

var _ engine.History = (*HistoryStore)(nil)

// OpenHistory opens (creating when needed) the history file at path.
func OpenHistory(ctx context.Context, path string) (*HistoryStore, error) {
	db, err := openDataFile(ctx, path, `CREATE TABLE IF NOT EXISTS history (
  id INTEGER PRIMARY KEY,
  time TEXT NOT NULL,
  database TEXT NOT NULL,
  database_sha256 TEXT NOT NULL DEFAULT '',
  question TEXT NOT NULL DEFAULT '',
  sql TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL,
  row_count INTEGER NOT NULL DEFAULT 0,
  duration_s REAL NOT NULL DEFAULT 0,
  model TEXT NOT NULL DEFAULT '',
  client TEXT NOT NULL DEFAULT '',
  attempts_json TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX IF NOT EXISTS history_database ON history(database, id);
CREATE INDEX IF NOT EXISTS history_sha ON history(database_sha256, id)`, historyErr)
	if err != nil {
		return nil, err
	}
	if err := migrateHistory(ctx, db); err != nil {
		db.Close()
		return nil, historyErr(path, err)
	}
	return &HistoryStore{path: path, db: db}, nil
}

// historyColumns are the columns added after the first version, with their
// definitions: a history file of an older Querent gains them when opened.
var historyColumns = [][2]string{
	{"time_to_rows_s", "REAL"},
	{"model_stats_json", "TEXT NOT NULL DEFAULT ''"},
	{"follows", "TEXT NOT NULL DEFAULT ''"},
	{"wrong", "INTEGER NOT NULL DEFAULT 0"},
	{"name", "TEXT NOT NULL DEFAULT ''"},
	{"schema_sha256", "TEXT NOT NULL DEFAULT ''"},
	{"verified", "TEXT NOT NULL DEFAULT ''"},
	{"verified_at", "TEXT NOT NULL DEFAULT ''"},
	{"original_sql", "TEXT NOT NULL DEFAULT ''"},
}

// migrateHistory adds the columns an older history file lacks.
func migrateHistory(ctx context.Context, db *sql.DB) error {
	have := map[string]bool{}
	rows, err := db.QueryContext(ctx, "SELECT name FROM pragma_table_info('history')")
	if err != nil {
		return err
	}
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			rows.Close()
			return err
		}
		have[n] = true
	}
	rows.Close()
	for _, c := range historyColumns {
		if !have[c[0]] {
			if _, err := db.ExecContext(ctx, "ALTER TABLE history ADD COLUMN "+c[0]+" "+c[1]); err != nil {
				return err
			}
		}
	}
	return nil
}

func historyErr(path string, err error) error {
	return engine.Errorf(engine.CodeDatabase, "Querent's history file %s cannot be used: %s", path, sqliteMessage(err)).WithErr(err).WithHint(
		"check the disk, or move the file away to start a new history")
}

// Close closes the history file.
func (h *HistoryStore) Close() error { return h.db.Close() }

// Record adds one entry.
func (h *HistoryStore) Record(ctx context.Context, e engine.HistoryEntry) error {
	if e.Time.IsZero() {
		e.Time = time.Now()
	}
	att, _ := json.Marshal(e.Attempts)
	if e.Attempts == nil {
		att = []byte("[]")
	}
	stats := ""
	if e.ModelStats != nil {
		b, _ := json.Marshal(e.ModelStats)
		stats = string(b)
	}
	_, err := h.db.ExecContext(ctx, `INSERT INTO history (time, database, database_sha256, question, sql, status, row_count, duration_s, model, client, attempts_json,
  time_to_rows_s, model_stats_json, follows, wrong, name, schema_sha256, verified, verified_at, original_sql)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		e.Time.UTC().Format(time.RFC3339Nano), e.Database, e.DatabaseSHA256, e.Question, e.SQL, e.Status, e.RowCount, e.DurationS, e.Model, e.Client, string(att),
		e.TimeToRowsS, stats, e.FollowsUp, e.Wrong, e.Name, e.SchemaSHA256, e.Verified, timeText(e.VerifiedAt), e.OriginalSQL)
	if err != nil {
		return historyErr(h.path, err)
	}
	return nil
}

func (h *HistoryStore) query(ctx context.Context, where string, args ...any) ([]engine.HistoryEntry, error) {
	rows, err := h.db.QueryContext(ctx, `SELECT time, database, database_sha256, question, sql, status, row_count, duration_s, model, client, attempts_json,
  time_to_rows_s, model_stats_json, id, follows, wrong, name, schema_sha256, verified, verified_at, original_sql
FROM history `+where, args...)
	if err != nil {
		return nil, historyErr(h.path, err)
	}
	defer rows.Close()
	out := []engine.HistoryEntry{}
	for rows.Next() {
		var e engine.HistoryEntry
		var t, att, stats, vat string
		var ttr sql.NullFloat64
		if err := rows.Scan(&t, &e.Database, &e.DatabaseSHA256, &e.Question, &e.SQL, &e.Status, &e.RowCount, &e.DurationS, &e.Model, &e.Client, &att,
			&ttr, &stats, &e.ID, &e.FollowsUp, &e.Wrong, &e.Name, &e.SchemaSHA256, &e.Verified, &vat, &e.OriginalSQL); err != nil {
			return nil, historyErr(h.path, err)
		}
		if ttr.Valid {
			v := ttr.Float64
			e.TimeToRowsS = &v
		}
		if stats != "" {
			var ms engine.ModelStats
			if json.Unmarshal([]byte(stats), &ms) == nil {
				e.ModelStats = &ms
			}
		}
		e.Time, _ = time.Parse(time.RFC3339Nano, t)
		if vat != "" {
			e.VerifiedAt, _ = time.Parse(time.RFC3339Nano, vat)
		}
		_ = json.Unmarshal([]byte(att), &e.Attempts)
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, historyErr(h.path, err)
	}
	return out, nil
}

// List returns the newest entries first; database "" lists every one.
func (h *HistoryStore) List(ctx context.Context, database string, limit int) ([]engine.HistoryEntry, error) {
	if limit <= 0 {
		limit = 20
	}
	if database == "" {
		return h.query(ctx, "ORDER BY id DESC LIMIT ?", limit)
	}
	return h.query(ctx, "WHERE database = ? ORDER BY id DESC LIMIT ?", database, limit)
}

// FillSHA256 gives the entries recorded under a file's quick identity
// (files.QuickPrefix…, recorded while its sha256 was not yet known) the
// sha256 now known.
func (h *HistoryStore) FillSHA256(ctx context.Context, quick, sha256 string) error {
	_, err := h.db.ExecContext(ctx, "UPDATE history SET database_sha256 = ? WHERE database_sha256 = ?", sha256, quick)
	return err
}

// Verified returns the answers the analyst approved or corrected on the
// database id identifies: its file's sha256 (or quick identity), or the
// same tables and columns (SchemaIdentity) — never its path. Newest first,
// one per question (the newest verified), at most limit. Follow-ups are
// left out (their question means nothing without the one before), and so
// is an answer whose question and SQL the analyst marked wrong elsewhere.
func (h *HistoryStore) Verified(ctx context.Context, id engine.DatabaseIdentity, limit int) ([]engine.HistoryEntry, error) {
	if limit <= 0 {
		limit = 200
	}
	if id.SHA256 == "" && id.SchemaSHA256 == "" {
		return []engine.HistoryEntry{}, nil
	}
	return h.query(ctx, fmt.Sprintf(`WHERE id IN (SELECT max(id) FROM history WHERE verified <> '' AND wrong = 0 AND status = 'ok'
  AND question <> '' AND sql <> '' AND follows = ''
  AND ((database_sha256 <> '' AND database_sha256 = ?) OR (schema_sha256 <> '' AND schema_sha256 = ?))
  AND NOT EXISTS (SELECT 1 FROM history w WHERE w.wrong = 1 AND lower(w.question) = lower(history.question) AND w.sql = history.sql)
  GROUP BY lower(trim(question))) ORDER BY id DESC LIMIT %d`, limit), id.SHA256, id.SchemaSHA256)
}

// Get returns the entry id; an id the history does not hold is a usage
// error.
func (h *HistoryStore) Get(ctx context.Context, id int64) (engine.HistoryEntry, error) {
	es, err := h.query(ctx, "WHERE id = ?", id)
	if err != nil {
		return engine.HistoryEntry{}, err
	}
	if len(es) == 0 {
		return engine.HistoryEntry{}, engine.Errorf(engine.CodeUsage, "the history has no entry %d", id).SayHint(
			words.New("hint.history_ids", words.History.With(words.Value("--format json"))))
	}
	return es[0], nil
}

// SetVerified records how the analyst vouched for entry e.ID: approved
// (e.Verified, e's SQL as it is), or corrected (e.SQL, e.RowCount, the
// identity and e.OriginalSQL replace the answer's). A verified answer is
// no longer marked wrong.
func (h *HistoryStore) SetVerified(ctx context.Context, e engine.HistoryEntry) error {
	if e.VerifiedAt.IsZero() {
		e.VerifiedAt = time.Now()
	}
	_, err := h.db.ExecContext(ctx, `UPDATE history SET verified = ?, verified_at = ?, wrong = 0, sql = ?, row_count = ?, status = ?,
  database_sha256 = ?, schema_sha256 = ?, original_sql = ? WHERE id = ?`,
		e.Verified, timeText(e.VerifiedAt), e.SQL, e.RowCount, e.Status, e.DatabaseSHA256, e.SchemaSHA256, e.OriginalSQL, e.ID)
	if err != nil {
		return historyErr(h.path, err)
	}
	return nil
}

func timeText(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

// Search returns the entries q selects, newest first.
func (h *HistoryStore) Search(ctx context.Context, q engine.HistoryQuery) ([]engine.HistoryEntry, error) {
	if q.Limit <= 0 {
		q.Limit = 100
	}
	var conds []string
	var args []any
	if q.Database != "" {
		conds = append(conds, "database = ?")
		args = append(args, q.Database)
	}
	if q.Saved {
		conds = append(conds, "name <> ''")
	}
	for _, w := range strings.Fields(q.Text) {
		conds = append(conds, `(instr(lower(question), ?) > 0 OR instr(lower(sql), ?) > 0 OR instr(lower(name), ?) > 0)`)
		lw := strings.ToLower(w)
		args = append(args, lw, lw, lw)
	}
	where := ""
	if len(conds) > 0 {
		where = "WHERE " + strings.Join(conds, " AND ") + " "
	}
	args = append(args, q.Limit)
	return h.query(ctx, where+"ORDER BY id DESC LIMIT ?", args...)
}

// Delete removes one entry; an id that is not there is no error.
func (h *HistoryStore) Delete(ctx context.Context, id int64) error {
	if _, err := h.db.ExecContext(ctx, "DELETE FROM history WHERE id = ?", id); err != nil {
		return historyErr(h.path, err)
	}
	return nil
}

// SetWrong marks an entry's answer wrong (or right again). A wrong answer
// is never an example for the model (Verified): marking it wrong takes back
// its approval.
func (h *HistoryStore) SetWrong(ctx context.Context, id int64, wrong bool) error {
	if _, err := h.db.ExecContext(ctx, "UPDATE history SET wrong = ?, verified = CASE WHEN ? THEN '' ELSE verified END WHERE id = ?", wrong, wrong, id); err != nil {
		return historyErr(h.path, err)
	}
	return nil
}

// SetName saves an entry under a name ("" takes it off the saved queries).
func (h *HistoryStore) SetName(ctx context.Context, id int64, name string) error {
	if _, err := h.db.ExecContext(ctx, "UPDATE history SET name = ? WHERE id = ?", strings.TrimSpace(name), id); err != nil {
		return historyErr(h.path, err)
	}
	return nil
}
