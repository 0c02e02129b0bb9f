// Command querent is Querent's console binary: the command line (sql,
// schema, import, and the commands of later versions), without cgo or GUI
// toolkit, so it builds and runs anywhere Go does.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"querent/app/cli"
	"querent/app/page"
	"querent/app/web"
	"querent/engine"
	"querent/engine/ingest"
	"querent/frontend"
	"querent/internal/wiring"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

func main() {
	wiring.RunWorkerIfAsked() // this process may be a query worker
	// SIGINT (Ctrl-C) and SIGTERM (a service manager, an MCP client, kill)
	// cancel the command's context: the work in flight returns, and a
	// PostgreSQL statement is stopped by a cancel request instead of
	// running on until its statement_timeout after Querent is gone. A
	// second signal, or work that outlives the grace, exits at once.
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	ctx, stop := cli.OnSignals(context.Background(), signals, cli.Grace, os.Stderr, func(code int) {
		ingest.CleanupTemp()
		os.Exit(code)
	})
	c := &cli.CLI{Open: wiring.OpenDatabase, Connect: wiring.Connect, DisplayName: wiring.DisplayName, Importer: wiring.NewImporter(),
		Model: wiring.NewModel, OpenAI: wiring.NewOpenAI, History: wiring.OpenHistory, Glossary: wiring.OpenGlossary,
		Serve: serve, Version: version}
	code := c.Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	if ctx.Err() != nil && code != 0 {
		code = 130
	}
	stop()
	ingest.CleanupTemp()
	os.Exit(code)
}

// serve runs the browser mode on the shared services.
func serve(ctx context.Context, target string, opts engine.OpenOptions, addr string, ready func(url string)) error {
	deps := wiring.PageDeps(version)
	deps.RequireReadOnlyRole = opts.RequireReadOnlyRole
	deps.AllowSuperuser = opts.AllowSuperuser
	svc := page.New(deps, nil, nil)
	defer svc.Close()
	srv, err := web.New(svc, frontend.Assets())
	if err != nil {
		return err
	}
	ln, err := srv.Listen(addr)
	if err != nil {
		return err
	}
	if target == "" {
		_, err = svc.Datasets.OpenDemo()
	} else {
		_, err = svc.Datasets.Open(target)
	}
	if err != nil {
		ln.Close()
		return err
	}
	ready(srv.URL())
	return srv.Serve(ctx, ln)
}
