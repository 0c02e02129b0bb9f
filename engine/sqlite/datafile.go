package sqlite

import (
	"context"
	"database/sql"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"querent/engine"
)

// openDataFile opens (creating when needed) one of Querent's own SQLite
// files in its data folder — the history, the glossary — and creates its
// tables with schema: WAL, a busy timeout so that several processes wait
// for each other, one connection. fail says an error in the file's words.
func openDataFile(ctx context.Context, path, schema string, fail func(path string, err error) error) (*sql.DB, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, engine.Errorf(engine.CodeDatabase, "cannot create Querent's data folder %s: %v", filepath.Dir(path), err).WithErr(err).WithHint(
			"set QUERENT_DATA_DIR to a folder you may write")
	}
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(5000)")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	u := url.URL{Scheme: "file", Path: p, RawQuery: q.Encode()}
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		return nil, fail(path, err)
	}
	db.SetMaxOpenConns(1)
	if _, err := db.ExecContext(ctx, schema); err != nil {
		db.Close()
		return nil, fail(path, err)
	}
	return db, nil
}
