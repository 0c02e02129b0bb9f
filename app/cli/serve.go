package cli

import (
	"context"
	"fmt"

	"querent/engine"
)

// Server runs the browser mode: it opens the database (the demo for ""),
// listens on addr, calls ready with the URL to open, and serves until ctx
// ends. Wired by cmd/querent.
type Server func(ctx context.Context, target string, opts engine.OpenOptions, addr string, ready func(url string)) error

const serveUsage = `Usage: querent serve [--db FILE|URL] [--addr 127.0.0.1:PORT] [--require-readonly-role] [--allow-superuser]

Starts the browser mode: the desktop app's page and services over HTTP on
this machine only (127.0.0.1), with a random token in the address it prints.
Open that address in a browser. Ctrl-C stops it. Without --db, the bundled
Chinook demo database is open; the page can open others.
`

func (c *CLI) runServe(ctx context.Context, args []string, s *stdio) int {
	fs := newFlags("serve", serveUsage)
	dbf := addDBFlags(fs, "to open", " (default: the bundled Chinook demo)")
	addr := fs.String("addr", "127.0.0.1:0", "the loopback address to listen on (port 0: a free one)")
	if ok, code := parseFlags(fs, args, s, serveUsage); !ok {
		return code
	}
	if fs.NArg() > 0 {
		printError(s.err, "serve", engine.Errorf(engine.CodeUsage, "unexpected argument %q", fs.Arg(0)).WithHint("name the database with --db FILE"))
		return 2
	}
	if c.Serve == nil {
		printError(s.err, "serve", engine.Errorf(engine.CodeInternal, "this build has no browser mode"))
		return 2
	}
	err := c.Serve(ctx, dbf.target, dbf.options(), *addr, func(url string) {
		fmt.Fprintf(s.out, "Querent is serving on this machine only. Open:\n\n  %s\n\nCtrl-C stops it.\n", url)
	})
	if err != nil && ctx.Err() == nil {
		printError(s.err, "serve", err)
		return engine.ExitCode(engine.ErrorCode(err))
	}
	return 0
}
