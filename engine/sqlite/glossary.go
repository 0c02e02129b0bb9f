package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"

	"querent/engine"
	"querent/engine/glossary"
)

// GlossaryStore keeps the analysts' glossaries in their own SQLite file in
// Querent's data folder (never in the user's database), one row an entry,
// each row naming its database by path and by sha256. Like the history it
// is safe for several processes: SQLite locks the file, and writers wait.
type GlossaryStore struct {
	path string
	db   *sql.DB
}

var _ glossary.Store = (*GlossaryStore)(nil)

// OpenGlossary opens (creating when needed) the glossary file at path.
func OpenGlossary(ctx context.Context, path string) (*GlossaryStore, error) {
	db, err := openDataFile(ctx, path, `CREATE TABLE IF NOT EXISTS glossary (
  id INTEGER PRIMARY KEY,
  database TEXT NOT NULL,
  database_sha256 TEXT NOT NULL DEFAULT '',
  term_key TEXT NOT NULL,
  entry_json TEXT NOT NULL,
  updated TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS glossary_database ON glossary(database);
CREATE INDEX IF NOT EXISTS glossary_sha ON glossary(database_sha256)`, glossaryErr)
	if err != nil {
		return nil, err
	}
	return &GlossaryStore{path: path, db: db}, nil
}

func glossaryErr(path string, err error) error {
	return engine.Errorf(engine.CodeDatabase, "Querent's glossary file %s cannot be used: %s", path, sqliteMessage(err)).WithErr(err).WithHint(
		"check the disk, or move the file away to start a new glossary")
}

// Close closes the glossary file.
func (g *GlossaryStore) Close() error { return g.db.Close() }

// where selects a database's rows: by its path, or by its sha256 when
// known (a file moved keeps its glossary; so does a file changed).
func where(db glossary.Ref) (string, []any) {
	if db.SHA256 == "" {
		return "database = ?", []any{db.Database}
	}
	return "(database = ? OR database_sha256 = ?)", []any{db.Database, db.SHA256}
}

// Entries returns db's entries, by term.
func (g *GlossaryStore) Entries(ctx context.Context, db glossary.Ref) ([]glossary.Entry, error) {
	w, args := where(db)
	rows, err := g.db.QueryContext(ctx, "SELECT term_key, entry_json FROM glossary WHERE "+w+" ORDER BY term_key, id DESC", args...)
	if err != nil {
		return nil, glossaryErr(g.path, err)
	}
	defer rows.Close()
	out := []glossary.Entry{}
	seen := map[string]bool{}
	for rows.Next() {
		var key, doc string
		if err := rows.Scan(&key, &doc); err != nil {
			return nil, glossaryErr(g.path, err)
		}
		var e glossary.Entry
		if seen[key] || json.Unmarshal([]byte(doc), &e) != nil {
			continue // the newest of one term (found by path and by sha256), or a row no Querent wrote
		}
		seen[key] = true
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, glossaryErr(g.path, err)
	}
	return out, nil
}

// Save adds e, or replaces the entry of the same term, and gives every
// entry of the database its path and sha256 as they are now.
func (g *GlossaryStore) Save(ctx context.Context, db glossary.Ref, e glossary.Entry) error {
	doc, err := json.Marshal(e)
	if err != nil {
		return engine.Errorf(engine.CodeInternal, "cannot encode the glossary entry: %v", err).WithErr(err).WithHint(
			"this is a bug in Querent; please report it with the entry you saved")
	}
	key := glossary.Key(e.Term)
	w, args := where(db)
	tx, err := g.db.BeginTx(ctx, nil)
	if err != nil {
		return glossaryErr(g.path, err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "DELETE FROM glossary WHERE term_key = ? AND "+w, append([]any{key}, args...)...); err != nil {
		return glossaryErr(g.path, err)
	}
	if _, err := tx.ExecContext(ctx, "UPDATE glossary SET database = ?, database_sha256 = ? WHERE "+w, append([]any{db.Database, db.SHA256}, args...)...); err != nil {
		return glossaryErr(g.path, err)
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO glossary (database, database_sha256, term_key, entry_json, updated) VALUES (?, ?, ?, ?, ?)",
		db.Database, db.SHA256, key, string(doc), e.Updated.UTC().Format(time.RFC3339Nano)); err != nil {
		return glossaryErr(g.path, err)
	}
	if err := tx.Commit(); err != nil {
		return glossaryErr(g.path, err)
	}
	return nil
}

// Remove removes the entry whose term's key is key; false when none was.
func (g *GlossaryStore) Remove(ctx context.Context, db glossary.Ref, key string) (bool, error) {
	w, args := where(db)
	res, err := g.db.ExecContext(ctx, "DELETE FROM glossary WHERE term_key = ? AND "+w, append([]any{key}, args...)...)
	if err != nil {
		return false, glossaryErr(g.path, err)
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}
