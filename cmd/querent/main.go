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
	"querent/app/desktop"
	"querent/app/desktop/wiring"
	"querent/app/web"
	"querent/engine"
	"querent/engine/export"
	"querent/engine/ingest"
	"querent/frontend"
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
	c := &cli.CLI{Open: wiring.OpenDatabase, Connect: wiring.Connect, DisplayName: wiring.DisplayName, Import: wiring.ImportFiles,
		Preview: wiring.PreviewFiles, Model: wiring.NewModel, History: wiring.OpenHistory,
		Export: exportQuery, Serve: serve, Version: version}
	code := c.Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	if ctx.Err() != nil && code != 0 {
		code = 130
	}
	stop()
	ingest.CleanupTemp()
	os.Exit(code)
}

// exportQuery writes a query's whole result to a file, with provenance.
func exportQuery(ctx context.Context, db engine.Database, req export.Request) (*export.Report, error) {
	req.Version = version
	return export.Run(ctx, db, req)
}

// serve runs the browser mode on the shared services.
func serve(ctx context.Context, target string, opts engine.OpenOptions, addr string, ready func(url string)) error {
	deps := wiring.DesktopDeps(version)
	deps.RequireReadOnlyRole = opts.RequireReadOnlyRole
	deps.AllowSuperuser = opts.AllowSuperuser
	svc := desktop.New(deps, nil, nil)
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
