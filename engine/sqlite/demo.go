package sqlite

import (
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sync"

	"modernc.org/sqlite/vfs"

	"querent/engine"
	"querent/engine/files"
)

// DemoName is how the built-in demo database is named to the user.
const DemoName = "Chinook demo (built in)"

// demoFile is the file's name inside the embedded folder.
const demoFile = "Chinook_Sqlite.sqlite"

//go:embed demo/Chinook_Sqlite.sqlite
var demoFS embed.FS

var (
	demoVFSOnce sync.Once
	demoVFSName string
	demoVFSErr  error
)

// OpenDemo opens the bundled Chinook database. It is written once to a
// private copy in Querent's data folder (checked against its sha256 each
// time) and opened from there with every layer of the guard, as a user's
// file would be; nothing is ever written to the copy either. A copy is
// needed because SQLite's temporary files (large sorts and groupings) cannot
// live on the read-only VFS over the binary's embedded file: only when no
// copy can be written is the demo opened from the binary itself.
func OpenDemo(ctx context.Context, opts Options) (*DB, error) {
	if path, err := demoCopy(); err == nil {
		db, err := Open(ctx, path, opts)
		if err == nil {
			db.name, db.path = DemoName, ""
			return db, nil
		}
	}
	return openEmbeddedDemo(ctx, opts)
}

// demoCopy returns the path of the private copy of the demo database,
// writing it when it is missing or not the same bytes.
func demoCopy() (string, error) {
	dir, err := files.DataDir()
	if err != nil {
		return "", err
	}
	sum := DemoSHA256()
	path := filepath.Join(dir, "cache", "chinook-"+sum[:16]+".sqlite")
	if b, err := os.ReadFile(path); err == nil {
		h := sha256.Sum256(b)
		if hex.EncodeToString(h[:]) == sum {
			return path, nil
		}
	}
	if err := writeFileAtomic(path, DemoBytes()); err != nil {
		return "", err
	}
	return path, nil
}

// openEmbeddedDemo opens the demo straight from the binary through a
// read-only VFS over the embedded file.
func openEmbeddedDemo(ctx context.Context, opts Options) (*DB, error) {
	demoVFSOnce.Do(func() {
		sub, err := fs.Sub(demoFS, "demo")
		if err != nil {
			demoVFSErr = err
			return
		}
		demoVFSName, _, demoVFSErr = vfs.New(sub)
	})
	if demoVFSErr != nil {
		return nil, engine.Errorf(engine.CodeInternal, "cannot open the built-in demo database: %v", demoVFSErr).WithErr(demoVFSErr)
	}
	opts = opts.withDefaults()
	q := connParams(true)
	q.Set("vfs", demoVFSName)
	u := url.URL{Scheme: "file", Opaque: demoFile, RawQuery: q.Encode()}
	db, err := openGuarded(ctx, u.String(), "", DemoName, "", opts)
	if err != nil {
		return nil, err
	}
	db.name = DemoName
	return db, nil
}

// DemoBytes returns the demo database file, for exports' provenance and tests.
func DemoBytes() []byte {
	b, _ := demoFS.ReadFile("demo/" + demoFile)
	return b
}

// DemoSHA256 is the hex sha256 of the demo database file.
func DemoSHA256() string {
	sum := sha256.Sum256(DemoBytes())
	return hex.EncodeToString(sum[:])
}
