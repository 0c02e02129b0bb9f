package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"querent/engine"
)

// pendingSidecar returns the path of a non-empty -wal or -journal file beside
// path, or "". With immutable=1 SQLite ignores both, so a file whose writer
// left changes there would be shown stale (WAL) or half-written (a hot
// rollback journal).
func pendingSidecar(path string) string {
	for _, suffix := range []string{"-wal", "-journal"} {
		if st, err := os.Stat(path + suffix); err == nil && st.Mode().IsRegular() && st.Size() > 0 {
			return path + suffix
		}
	}
	return ""
}

// snapshot copies path and its sidecar into a private temporary folder and
// lets SQLite fold the sidecar into the copy there (WAL checkpoint or
// rollback of a hot journal), so that the guarded connection reads what the
// writer left without anything being written beside the user's file. It
// returns the folder (to remove on close) and the copy's path.
func snapshot(ctx context.Context, path, sidecar string) (dir, copyPath string, err error) {
	dir, err = os.MkdirTemp("", "querent-snapshot-")
	if err != nil {
		return "", "", dbError(path, "cannot make a private snapshot: %v", err).WithErr(err).WithHint("free some disk space in the temporary folder")
	}
	defer func() {
		if err != nil {
			os.RemoveAll(dir)
		}
	}()
	copyPath = filepath.Join(dir, "snapshot.db")
	if err := copyFile(ctx, path, copyPath); err != nil {
		return "", "", err
	}
	suffix := strings.TrimPrefix(sidecar, path)
	if err := copyFile(ctx, sidecar, copyPath+suffix); err != nil {
		return "", "", err
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(copyPath)}
	if !strings.HasPrefix(u.Path, "/") {
		u.Path = "/" + u.Path
	}
	q := url.Values{}
	q.Add("_pragma", "trusted_schema(0)")
	u.RawQuery = q.Encode()
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		return "", "", openError(path, err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	// Reading the schema replays the WAL or rolls back the hot journal.
	var n int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema").Scan(&n); err != nil {
		return "", "", openError(path, err)
	}
	if strings.HasSuffix(suffix, "-wal") {
		if _, err := db.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
			return "", "", openError(path, err)
		}
		var mode string
		if err := db.QueryRowContext(ctx, "PRAGMA journal_mode=DELETE").Scan(&mode); err != nil {
			return "", "", openError(path, err)
		}
	}
	if err := db.Close(); err != nil {
		return "", "", openError(path, err)
	}
	return dir, copyPath, nil
}

// copyFile copies src to dst, checking ctx between chunks.
func copyFile(ctx context.Context, src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return dbError(src, "cannot read: %v", err).WithErr(err).WithHint("check that you may read the file")
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return dbError(src, "cannot make a private snapshot: %v", err).WithErr(err).WithHint("free some disk space in the temporary folder")
	}
	defer out.Close()
	buf := make([]byte, 1<<20)
	for {
		if err := ctx.Err(); err != nil {
			return engine.AsError(err)
		}
		n, rerr := in.Read(buf)
		if n > 0 {
			if _, werr := out.Write(buf[:n]); werr != nil {
				return dbError(src, "cannot make a private snapshot: %v", werr).WithErr(werr).WithHint("free some disk space in the temporary folder")
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return dbError(src, "cannot read: %v", rerr).WithErr(rerr).WithHint("check the disk")
		}
	}
	if err := out.Close(); err != nil {
		return dbError(src, "cannot make a private snapshot: %v", err).WithErr(err)
	}
	return nil
}

// sqliteMessage returns SQLite's own message from a driver error, without the
// driver's "SQL logic error: " prefix and " (1)" suffix.
func sqliteMessage(err error) string {
	if err == nil {
		return ""
	}
	var be *bulkError
	if errors.As(err, &be) {
		return be.msg
	}
	s := err.Error()
	if i := strings.LastIndex(s, " ("); i > 0 && strings.HasSuffix(s, ")") {
		if _, scanErr := fmt.Sscanf(s[i+2:len(s)-1], "%d", new(int)); scanErr == nil {
			s = s[:i]
		}
	}
	for _, prefix := range []string{"SQL logic error: ", "not authorized: ", "string or blob too big: ",
		"interrupted: ", "database disk image is malformed: ", "file is not a database: ", "out of memory: ",
		"unable to open database file: ", "disk I/O error: ", "attempt to write a readonly database: "} {
		if strings.HasPrefix(s, prefix) && len(s) > len(prefix) {
			return s[len(prefix):]
		}
	}
	return s
}
