package pgtest

import (
	"context"
	"errors"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// The seeds' PostgreSQL Chinook (../shared/data/chinook beside the
// checkout) and its sha256, as the data README gives it.
const (
	ChinookSHA256 = "e3fde5c1a5b51a2a91429a702c9ca6e69ba56e6c7f5e112724d70c3d03db695e"

	// Reader is a role that may only read Chinook's tables (the seeds'
	// agent_lecteur); ReaderPassword its password.
	Reader         = "agent_lecteur"
	ReaderPassword = "Lecteur-Pw-2291"
)

// ChinookFile is the path of the seeds' Chinook_PostgreSql.sql, found
// from this package's own folder (the checkout's sibling ../shared).
func ChinookFile() string {
	_, here, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(here), "..", "..", "..")
	return filepath.Join(root, "..", "shared", "data", "chinook", "Chinook_PostgreSql.sql")
}

// StartChinook starts a private cluster for t with Chinook loaded (in the
// database "chinook") and the SELECT-only role Reader, stopped when t
// ends, and returns it with Reader's connection URL. Without PostgreSQL
// the test is skipped, unless Required, when it fails.
func StartChinook(t testing.TB) (*Server, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	srv, err := Start(ctx)
	if err != nil {
		if errors.Is(err, ErrNoServer) && !Required() {
			t.Skipf("skipped: %v (QUERENT_REQUIRE_POSTGRES=1 makes this a failure)", err)
		}
		t.Fatalf("the test PostgreSQL server: %v", err)
	}
	t.Cleanup(srv.Stop)
	if err := srv.LoadFile(ctx, "postgres", ChinookFile(), ChinookSHA256); err != nil {
		t.Fatalf("loading Chinook: %v", err)
	}
	setup := `CREATE ROLE ` + Reader + ` LOGIN PASSWORD '` + ReaderPassword + `';
GRANT CONNECT ON DATABASE chinook TO ` + Reader + `;
GRANT USAGE ON SCHEMA public TO ` + Reader + `;
GRANT SELECT ON ALL TABLES IN SCHEMA public TO ` + Reader + `;
ANALYZE;`
	if out, err := srv.Psql(ctx, "chinook", "-c", setup); err != nil {
		t.Fatalf("the reader role: %v\n%s", err, out)
	}
	return srv, srv.URL(Reader, ReaderPassword, "chinook")
}
