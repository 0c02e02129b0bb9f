// Command querent is Querent's console binary: the command line (sql,
// schema, and the commands of later versions), without cgo or GUI toolkit,
// so it builds and runs anywhere Go does.
package main

import (
	"context"
	"os"
	"os/signal"
	"path/filepath"

	"querent/app/cli"
	"querent/engine"
	"querent/engine/sqlite"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	c := &cli.CLI{Open: openDatabase, Version: version}
	code := c.Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	if ctx.Err() != nil && code != 0 {
		code = 130
	}
	stop()
	os.Exit(code)
}

// openDatabase opens a user's file, or the bundled demo for "". Files that
// passed the integrity check are remembered in Querent's data folder, so an
// unchanged file is not read whole by every command.
func openDatabase(ctx context.Context, path string) (engine.Database, error) {
	if path == "" {
		return sqlite.OpenDemo(ctx, sqlite.Options{})
	}
	var opts sqlite.Options
	if dir, err := engine.DataDir(); err == nil {
		opts.CheckCache = &sqlite.FileCheckCache{Path: filepath.Join(dir, "checked-files.json")}
	}
	return sqlite.Open(ctx, path, opts)
}
