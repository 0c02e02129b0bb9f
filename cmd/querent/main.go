// Command querent is Querent's console binary: the command line (sql,
// schema, import, and the commands of later versions), without cgo or GUI
// toolkit, so it builds and runs anywhere Go does.
package main

import (
	"context"
	"os"
	"os/signal"

	"querent/app/cli"
	"querent/app/desktop"
	"querent/app/desktop/wiring"
	"querent/app/web"
	"querent/engine"
	"querent/engine/export"
	"querent/engine/ingest"
	"querent/engine/sqlite"
	"querent/frontend"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

func main() {
	wiring.RunWorkerIfAsked() // this process may be a query worker
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	c := &cli.CLI{Open: wiring.OpenDatabase, Import: importFiles, Model: wiring.NewModel, History: wiring.OpenHistory,
		Export: exportQuery, Serve: serve, Version: version}
	code := c.Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	if ctx.Err() != nil && code != 0 {
		code = 130
	}
	stop()
	ingest.CleanupTemp()
	os.Exit(code)
}

// importFiles adapts the CLI's import request to the shared wiring.
func importFiles(ctx context.Context, req cli.ImportRequest) (*engine.ImportReport, error) {
	return wiring.ImportFiles(ctx, req.Target, req.Inputs,
		ingest.Options{Encoding: req.Encoding, Delimiter: req.Delimiter, Ragged: req.Ragged, Sheets: req.Sheets, Progress: req.Progress},
		sqlite.ImportOptions{Table: req.Table, Replace: req.Replace, ReplaceUserTable: req.ReplaceUserTable, Append: req.Append, Progress: req.Progress})
}

// exportQuery writes a query's whole result to a file, with provenance.
func exportQuery(ctx context.Context, db engine.Database, req cli.ExportRequest) (*cli.ExportResult, error) {
	opts := export.Options{Delimiter: req.Delimiter, BOM: req.BOM, Raw: req.Raw, Chart: req.Chart, Force: req.Force,
		MaxRows: req.MaxRows, Timeout: req.Timeout,
		Provenance: export.Provenance{Question: req.Question, Model: req.Model, Version: version}}
	if req.Progress != nil {
		opts.Progress = func(p export.Progress) { req.Progress(p.Rows, p.Bytes) }
	}
	rep, err := wiring.Export(ctx, db, req.SQL, req.Out, opts)
	if err != nil {
		return nil, err
	}
	return &cli.ExportResult{Path: rep.Path, Format: rep.Format, Rows: rep.Rows, Truncated: rep.Truncated,
		Sheets: rep.Sheets, Warnings: rep.Warnings, Elapsed: rep.Elapsed}, nil
}

// serve runs the browser mode on the shared services.
func serve(ctx context.Context, dbPath, addr string, ready func(url string)) error {
	svc := desktop.New(wiring.DesktopDeps(version), nil, nil)
	defer svc.Close()
	srv, err := web.New(svc, frontend.Assets())
	if err != nil {
		return err
	}
	ln, err := srv.Listen(addr)
	if err != nil {
		return err
	}
	if dbPath == "" {
		_, err = svc.Datasets.OpenDemo()
	} else {
		_, err = svc.Datasets.Open(dbPath)
	}
	if err != nil {
		ln.Close()
		return err
	}
	ready(srv.URL())
	return srv.Serve(ctx, ln)
}
