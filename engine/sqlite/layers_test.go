package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"modernc.org/sqlite"

	"querent/engine"
)

// layerAttacks are writes that each layer of the guard is run against on
// its own, to show which layers stop which attacks (the layers overlap on
// purpose; security.md explains why none is enough alone).
var layerAttacks = []string{
	"INSERT INTO Artist VALUES (9999, 'pwned')",
	"WITH x AS (SELECT 1) DELETE FROM Album",
	"CREATE TABLE loot (x)",
	"ATTACH '{{DIR}}/loot.db' AS loot",
	"VACUUM INTO '{{DIR}}/copy.db'",
	"PRAGMA user_version = 777",
	"PRAGMA journal_mode = WAL",
	"SELECT 1; DELETE FROM Album",
}

// layerConfig opens a connection with only some layers.
type layerConfig struct {
	name       string
	params     url.Values // connection parameters
	authorizer bool
	limits     bool
}

func TestLayersAlone(t *testing.T) {
	configs := []layerConfig{
		{name: "connection flags (mode=ro, immutable, query_only, defensive)", params: connParams(true)},
		{name: "limits (ATTACHED 0 …) on a read-write connection", params: url.Values{}, limits: true},
		{name: "authorizer on a read-write connection", params: url.Values{}, authorizer: true},
	}
	ctx := context.Background()
	for _, cfg := range configs {
		stopped := 0
		var through []string
		for _, attack := range layerAttacks {
			path := copyChinook(t)
			dir := filepath.Dir(path)
			u := watch(t, path)
			q := strings.ReplaceAll(attack, "{{DIR}}", filepath.ToSlash(dir))
			func() {
				db, conn := layerConn(t, path, cfg)
				defer db.Close()
				defer conn.Close()
				auth := &authState{}
				if cfg.authorizer {
					if err := conn.Raw(func(dc any) error {
						return dc.(sqlite.AuthorizerRegisterer).RegisterAuthorizer(auth.authorize)
					}); err != nil {
						t.Fatal(err)
					}
				}
				if cfg.limits {
					for _, l := range limits {
						if _, err := sqlite.Limit(conn, l.id, l.value); err != nil {
							t.Fatal(err)
						}
					}
				}
				auth.reset(policyQuery)
				// Exec runs every statement of the text, with no pre-check.
				_, _ = conn.ExecContext(ctx, q)
			}()
			if fileSHA(t, path) == u.sha && listDir(t, dir) == u.dir {
				stopped++
			} else {
				through = append(through, attack)
			}
		}
		line := fmt.Sprintf("%s stops %d of %d writes", cfg.name, stopped, len(layerAttacks))
		if len(through) > 0 {
			line += "; gets through alone: " + strings.Join(through, " | ")
		}
		report.layers = append(report.layers, line)
		t.Log(line)
		if strings.HasPrefix(cfg.name, "authorizer") && len(through) > 0 {
			// VACUUM INTO compiles with no authorizer callback, but runs an
			// ATTACH inside, which the authorizer denies.
			t.Errorf("the authorizer alone should stop every write; got through: %v", through)
		}
	}
	// The full guard stops all of them, before or inside SQLite.
	path := copyChinook(t)
	u := watch(t, path)
	db := openT(t, path, Options{})
	for _, attack := range layerAttacks {
		q := strings.ReplaceAll(attack, "{{DIR}}", filepath.ToSlash(filepath.Dir(path)))
		if _, err := db.Run(ctx, q, engine.RunOptions{}); err == nil {
			t.Errorf("the guard ran %q", q)
		}
	}
	db.Close()
	u.check(t, "the full guard")
	report.layers = append(report.layers, fmt.Sprintf("the full guard stops %d of %d", len(layerAttacks), len(layerAttacks)))
}

func layerConn(t *testing.T, path string, cfg layerConfig) (*sql.DB, *sql.Conn) {
	t.Helper()
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(path), RawQuery: cfg.params.Encode()}
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return db, conn
}

// TestErrorOffsetReachable guards the reflection that reads SQLite's error
// offset: if the driver's connection layout changes, syntax errors lose
// their position and this test says why.
func TestErrorOffsetReachable(t *testing.T) {
	db := openT(t, copyChinook(t), Options{})
	err := db.withLock(context.Background(), func() error {
		db.auth.reset(policyQuery)
		_, _, err := db.columnInfoLocked("SELECT Title FROM Album WHERE")
		if err == nil {
			t.Fatal("no error for an incomplete statement")
		}
		_, off, _ := db.columnInfoLocked("SELECT Titel FROM Album")
		if off != 7 {
			t.Errorf("error offset = %d, want 7: errorOffset cannot reach sqlite3_error_offset through the driver's connection (modernc.org/sqlite changed?)", off)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
