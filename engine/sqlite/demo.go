package sqlite

import (
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"net/url"
	"sync"

	"modernc.org/sqlite/vfs"

	"querent/engine"
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

// OpenDemo opens the bundled Chinook database straight from the binary,
// through a read-only VFS over the embedded file: nothing is written
// anywhere, and every layer of the guard applies as for a user's file.
func OpenDemo(ctx context.Context, opts Options) (*DB, error) {
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
