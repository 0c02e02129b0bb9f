// Command querent is Querent's console binary: the command line (sql,
// schema, import, and the commands of later versions), without cgo or GUI
// toolkit, so it builds and runs anywhere Go does.
package main

import (
	"context"
	"os"
	"os/signal"
	"path/filepath"
	"time"

	"querent/app/cli"
	"querent/engine"
	"querent/engine/export"
	"querent/engine/ingest"
	"querent/engine/ollama"
	"querent/engine/sqlite"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	c := &cli.CLI{Open: openDatabase, Import: importFiles, Model: newModel, History: openHistory, Export: exportQuery, Version: version}
	code := c.Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	if ctx.Err() != nil && code != 0 {
		code = 130
	}
	stop()
	ingest.CleanupTemp()
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

// newModel connects to Ollama.
func newModel(host string, timeout time.Duration) (engine.Model, error) {
	return ollama.New(ollama.Config{Host: host, RequestTimeout: timeout})
}

// openHistory opens the history file in Querent's data folder.
func openHistory(ctx context.Context) (engine.History, func(), error) {
	dir, err := engine.DataDir()
	if err != nil {
		return nil, nil, engine.Errorf(engine.CodeDatabase, "Querent's data folder is unknown: %v", err).WithHint("set QUERENT_DATA_DIR")
	}
	h, err := sqlite.OpenHistory(ctx, filepath.Join(dir, "history.sqlite"))
	if err != nil {
		return nil, nil, err
	}
	return h, func() { h.Close() }, nil
}

// exportQuery writes a query's whole result to a file, with provenance.
func exportQuery(ctx context.Context, db engine.Database, req cli.ExportRequest) (*cli.ExportResult, error) {
	opts := export.Options{Delimiter: req.Delimiter, BOM: req.BOM, Raw: req.Raw, Chart: req.Chart, Force: req.Force,
		MaxRows: req.MaxRows, Timeout: req.Timeout,
		Provenance: export.Provenance{Question: req.Question, Model: req.Model, Version: version}}
	if req.Progress != nil {
		opts.Progress = func(p export.Progress) { req.Progress(p.Rows, p.Bytes) }
	}
	rep, err := export.Export(ctx, db, req.SQL, req.Out, opts)
	if err != nil {
		return nil, err
	}
	return &cli.ExportResult{Path: rep.Path, Format: rep.Format, Rows: rep.Rows, Truncated: rep.Truncated,
		Sheets: rep.Sheets, Warnings: rep.Warnings, Elapsed: rep.Elapsed}, nil
}

// importFiles reads every input first (each file's first pass: types), so
// that a bad file stops the import before anything is written, then writes
// all the tables in one all-or-nothing step.
func importFiles(ctx context.Context, req cli.ImportRequest) (*engine.ImportReport, error) {
	defer ingest.CleanupTemp()
	var tables []*engine.ImportTable
	for _, in := range req.Inputs {
		ts, err := ingest.Read(ctx, in, ingest.Options{Encoding: req.Encoding, Delimiter: req.Delimiter,
			Ragged: req.Ragged, Sheets: req.Sheets, Progress: req.Progress})
		if err != nil {
			return nil, err
		}
		tables = append(tables, ts...)
	}
	return sqlite.Import(ctx, req.Target, tables, sqlite.ImportOptions{Table: req.Table, Replace: req.Replace,
		Append: req.Append, Progress: req.Progress})
}
