package web_test

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"querent/engine/postgres/pgtest"
)

// TestConnectEndToEnd drives "Connect to PostgreSQL" in the real browser
// (frontend/e2e/connect.e2e.mjs) against a private PostgreSQL cluster with
// Chinook: Test connection as the SELECT-only role (its facts), Connect,
// the tables, SQL run on the server, the superuser refused by default (the
// engine's reason, where to allow it), allowed from the refusal's Settings
// and then connected with its warning, the Settings' "Refuse PostgreSQL
// roles that may write" refusing it again, a saved connection without its
// password. Then no file of the server's data folder holds
// either password (the script checks the page's DOM). Skipped without
// PostgreSQL unless QUERENT_REQUIRE_POSTGRES is set (make e2e sets it).
func TestConnectEndToEnd(t *testing.T) {
	needsBrowser(t, " and PostgreSQL")
	out := reportDir(t)
	srv, _ := pgtest.StartChinook(t)
	dir := t.TempDir()
	url := serveIn(t, "127.0.0.1:1", "", dir)
	runScript(t, "connect.e2e.mjs", 3*time.Minute, []string{url, out},
		"PG_HOST=127.0.0.1", "PG_PORT="+strconv.Itoa(srv.Port), "PG_DATABASE=chinook",
		"PG_READER="+pgtest.Reader, "PG_READER_PASSWORD="+pgtest.ReaderPassword,
		"PG_SUPER="+pgtest.SuperUser, "PG_SUPER_PASSWORD="+pgtest.SuperPassword)

	// The saved connection is there, without a password.
	var saved []map[string]any
	raw, err := os.ReadFile(filepath.Join(dir, "connections.json"))
	if err != nil || json.Unmarshal(raw, &saved) != nil || len(saved) == 0 {
		t.Fatalf("connections.json: %v, %s", err, raw)
	}
	if _, ok := saved[0]["password"]; ok || saved[0]["username"] != pgtest.Reader {
		t.Errorf("the saved connection: %v", saved[0])
	}
	// No password in any file of the data folder (settings, history, the
	// saved connections, caches).
	files := 0
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		files++
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, pw := range []string{pgtest.ReaderPassword, pgtest.SuperPassword} {
			if bytes.Contains(b, []byte(pw)) {
				t.Errorf("%s holds a password", path)
			}
		}
		return nil
	})
	if err != nil || files < 2 {
		t.Errorf("reading the data folder: %v (%d files)", err, files)
	}
}
