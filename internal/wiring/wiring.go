// Package wiring joins the engine's adapters to the faces: it is the one
// place, shared by the two binaries (the console binary cmd/querent and the
// desktop app main.go), where concrete types meet: the guarded SQLite
// adapter, the Ollama client, the history store, the CSV/XLSX readers and
// the XLSX/CSV writers.
package wiring

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"querent/app/page"
	"querent/engine"
	"querent/engine/files"
	"querent/engine/glossary"
	"querent/engine/importer"
	"querent/engine/imports"
	"querent/engine/ollama"
	"querent/engine/openai"
	"querent/engine/postgres"
	"querent/engine/sensitive"
	"querent/engine/sqlite"
	"querent/engine/worker"
	"querent/engine/workspace"
)

// OpenDatabase opens what target names: a PostgreSQL database for a
// connection URL or key=value string (postgres.LooksLikeConnString), else a
// user's SQLite file, or the bundled demo for "".
//
// A SQLite file is opened in a query worker (engine/worker): a copy of this
// executable that holds the guarded connection and is killed when a
// statement outlives its timeout, is cancelled and does not stop, or grows
// past the memory ceiling (MaxMemory). Every binary that calls it must call
// RunWorkerIfAsked first. A PostgreSQL database needs no worker: the server
// runs the statement under its own statement_timeout, a cancel request
// stops it, and the adapter refuses rows and results past the ceiling
// before reading them.
func OpenDatabase(ctx context.Context, target string, opts engine.OpenOptions) (engine.Database, error) {
	db, err := openDatabase(ctx, target, opts)
	return sensitive.WithMarks(ctx, db, err)
}

func openDatabase(ctx context.Context, target string, opts engine.OpenOptions) (engine.Database, error) {
	if postgres.LooksLikeConnString(target) {
		return postgres.Open(ctx, target, postgres.Options{RequireReadOnlyRole: opts.RequireReadOnlyRole, AllowSuperuser: opts.AllowSuperuser, MaxMemory: MaxMemory()})
	}
	if workspace.IsDataFile(target) {
		return openDataFile(ctx, target, opts)
	}
	path := target
	cfg := worker.Config{Budget: Budget(), Hashes: hashStore{}}
	if path != "" {
		// The file is opened once, here, without blocking, and checked from
		// its descriptor; every worker reads that descriptor. A file with
		// changes waiting in its -wal (or a hot -journal) is read from a
		// private snapshot that this process owns, so that a worker killed
		// and started again opens the same state without a new copy.
		abs, err := filepath.Abs(path)
		if err != nil {
			return nil, engine.Errorf(engine.CodeDatabase, "%s: cannot resolve the path: %v", path, err).WithHint("check the path").WithErr(err)
		}
		f, _, err := files.OpenDatabase(abs)
		if err != nil {
			return nil, err
		}
		dir, snap, warning, err := sqlite.MakeSnapshotOf(ctx, "", abs, f)
		if err != nil {
			f.Close()
			return nil, err
		}
		cfg.File = f
		if warning != "" {
			cfg.Warnings = []string{warning}
		}
		if dir != "" {
			cfg.Snapshot = snap
			cfg.OnClose = func() { sqlite.ReleaseSnapshot(dir) }
		}
		path = abs
	}
	db, err := worker.Open(ctx, path, cfg)
	if err != nil && cfg.OnClose != nil {
		cfg.OnClose()
	}
	return db, err
}

// openDataFile opens a CSV, XLSX, JSON or Parquet file named in place of
// a database: its workspace in Querent's data folder (engine/workspace),
// imported on the first open and when the file changed, shown as the file.
func openDataFile(ctx context.Context, target string, opts engine.OpenOptions) (engine.Database, error) {
	dir, err := files.DataDir()
	if err != nil {
		return nil, engine.Errorf(engine.CodeDatabase, "Querent's data folder is unknown: %v", err).WithErr(err).WithHint("set QUERENT_DATA_DIR")
	}
	im := NewImporter()
	defer im.Close()
	store := &workspace.Store{Dir: filepath.Join(dir, workspace.Folder), Importer: im}
	var progress func(imports.Progress)
	if opts.Progress != nil {
		progress = func(p imports.Progress) {
			opts.Progress(engine.ImportProgress{Phase: p.Phase, Source: p.Source, BytesDone: p.BytesDone, BytesTotal: p.BytesTotal, Rows: p.Rows, RowsTotal: p.RowsTotal})
		}
	}
	ws, err := store.Open(ctx, target, progress)
	if err != nil {
		return nil, err
	}
	db, err := OpenDatabase(ctx, ws.Database, engine.OpenOptions{})
	if err != nil {
		return nil, err
	}
	return workspace.Wrap(db, ws), nil
}

// hashStore remembers files' sha256 by quick identity in Querent's data
// folder (file-hashes.json), and fills them into the history entries that
// were recorded before they were known.
type hashStore struct{}

func (hashStore) cache() *files.HashCache {
	dir, err := files.DataDir()
	if err != nil {
		return nil
	}
	return &files.HashCache{Path: filepath.Join(dir, "file-hashes.json")}
}

func (h hashStore) Lookup(quick string) string {
	if c := h.cache(); c != nil {
		return c.Lookup(quick)
	}
	return ""
}

func (h hashStore) Store(quick, sha256 string) {
	c := h.cache()
	if c == nil {
		return
	}
	c.Store(quick, sha256)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if hist, closeH, err := OpenHistory(ctx); err == nil {
		if hs, ok := hist.(*sqlite.HistoryStore); ok {
			_ = hs.FillSHA256(ctx, quick, sha256)
		}
		closeH()
	}
}

// Connect opens the database a connection object of the sub-agent
// contract names: a SQLite file ({"db_type": "sqlite", "host": FILE}; an
// empty db_type is SQLite too) or a PostgreSQL database
// ({"db_type": "postgresql", "host", "port", "database", "username",
// "password", "ssl"}).
func Connect(ctx context.Context, c engine.Connection, opts engine.OpenOptions) (engine.Database, error) {
	if c.IsPostgres() {
		db, err := postgres.OpenConnection(ctx, c, postgres.Options{RequireReadOnlyRole: opts.RequireReadOnlyRole, AllowSuperuser: opts.AllowSuperuser, MaxMemory: MaxMemory()})
		return sensitive.WithMarks(ctx, db, err)
	}
	if t := strings.ToLower(strings.TrimSpace(c.DBType)); t != "" && t != "sqlite" && t != "sqlite3" {
		return nil, engine.Errorf(engine.CodeUsage, "db_type %q is not supported", c.DBType).WithHint(
			`Querent reads SQLite files ("db_type": "sqlite", "host": FILE) and PostgreSQL databases ("db_type": "postgresql")`)
	}
	return OpenDatabase(ctx, c.Host, opts)
}

// DisplayName is how a database target is shown before it is open: a
// PostgreSQL connection string as postgres://role@host:port/db, without
// its password (or "a PostgreSQL connection string" when it does not
// parse); anything else as given.
func DisplayName(target string) string {
	if !postgres.LooksLikeConnString(target) {
		return target
	}
	if name, err := postgres.DisplayName(target); err == nil {
		return name
	}
	return "a PostgreSQL connection string"
}

// RunWorkerIfAsked serves as a query worker and exits when this process
// was started as one (by OpenDatabase); otherwise it returns at once. Call
// it first thing in main, and in TestMain of tests that open databases
// through OpenDatabase.
func RunWorkerIfAsked() {
	worker.Main(openInWorker)
}

// openInWorker opens the database inside the worker process, with SQLite's
// heap limited to three quarters of the ceiling (the rest is Go's: the
// result being copied out, the frames being written).
func openInWorker(ctx context.Context, a worker.OpenArgs) (engine.Database, error) {
	if err := sqlite.LimitProcessHeap(a.MaxMemory / 4 * 3); err != nil {
		return nil, engine.Errorf(engine.CodeInternal, "cannot limit SQLite's memory: %v", err).WithErr(err)
	}
	return OpenInProcess(ctx, a.Path, sqlite.Options{MaxMemory: a.MaxMemory, QuickCheckTimeout: skipCheck(a.SkipCheck), File: a.File, FileIsSnapshot: a.Snapshot})
}

func skipCheck(skip bool) time.Duration {
	if skip {
		return -1
	}
	return 0
}

// OpenInProcess opens a database in this process, without a worker: for the
// worker itself, and for tests of the engine. Files that passed the
// integrity check are remembered in Querent's data folder, so an unchanged
// file is not read whole on every open.
func OpenInProcess(ctx context.Context, path string, opts sqlite.Options) (engine.Database, error) {
	if path == "" {
		return sqlite.OpenDemo(ctx, opts)
	}
	if dir, err := files.DataDir(); err == nil {
		opts.CheckCache = &sqlite.FileCheckCache{Path: filepath.Join(dir, "checked-files.json")}
	}
	return sqlite.Open(ctx, path, opts)
}

// Budget is this process's memory ceiling (MaxMemory), shared by every
// database it opens (their query workers) and its imports, made once: the
// first call also holds this process's Go heap to its part
// (worker.Budget.LimitParent).
var Budget = sync.OnceValue(func() *worker.Budget {
	b := worker.NewBudget(MaxMemory())
	b.LimitParent()
	return b
})

// MaxMemory is the memory ceiling of all of Querent together (this
// process, its query workers, its imports): $QUERENT_MAX_MEMORY (a size
// such as 512MB or 2GB, or bytes), else 1 GB.
func MaxMemory() int64 {
	if n, err := engine.ParseSize(os.Getenv("QUERENT_MAX_MEMORY")); err == nil && n > 0 {
		return n
	}
	return worker.DefaultMaxMemory
}

// NewModel connects to Ollama.
func NewModel(host string, timeout time.Duration) (engine.Model, error) {
	return ollama.New(ollama.Config{Host: host, RequestTimeout: timeout})
}

// NewOpenAI connects to an OpenAI-compatible server (LM Studio,
// llama-server, vLLM, Jan) at baseURL with apiKey ("" → $OPENAI_API_KEY).
func NewOpenAI(baseURL, apiKey string, timeout time.Duration) (engine.Model, error) {
	return openai.New(openai.Config{BaseURL: baseURL, APIKey: apiKey, RequestTimeout: timeout})
}

// The app's History service edits the store.
var _ page.HistoryEditor = (*sqlite.HistoryStore)(nil)

// NewImporter is the engine's import use case, writing SQLite files, its
// memory bounded by MaxMemory.
func NewImporter() *importer.Importer {
	return importer.New(sqlite.ImportWriter{}, importer.Options{MaxMemory: MaxMemory(), Budget: Budget()})
}

// OpenHistory opens the history file in Querent's data folder.
func OpenHistory(ctx context.Context) (engine.History, func(), error) {
	dir, err := files.DataDir()
	if err != nil {
		return nil, nil, engine.Errorf(engine.CodeDatabase, "Querent's data folder is unknown: %v", err).WithErr(err).WithHint("set QUERENT_DATA_DIR")
	}
	h, err := sqlite.OpenHistory(ctx, filepath.Join(dir, "history.sqlite"))
	if err != nil {
		return nil, nil, err
	}
	return h, func() { h.Close() }, nil
}

// OpenGlossary opens the glossaries' file in Querent's data folder.
func OpenGlossary(ctx context.Context) (glossary.Store, func(), error) {
	dir, err := files.DataDir()
	if err != nil {
		return nil, nil, engine.Errorf(engine.CodeDatabase, "Querent's data folder is unknown: %v", err).WithErr(err).WithHint("set QUERENT_DATA_DIR")
	}
	g, err := sqlite.OpenGlossary(ctx, filepath.Join(dir, "glossary.sqlite"))
	if err != nil {
		return nil, nil, err
	}
	return g, func() { g.Close() }, nil
}

// PageDeps are the engine's parts for the app's services.
func PageDeps(version string) page.Deps {
	return page.Deps{
		Open:     OpenDatabase,
		Connect:  Connect,
		Model:    NewModel,
		OpenAI:   NewOpenAI,
		History:  OpenHistory,
		Glossary: OpenGlossary,
		Importer: NewImporter(),
		Version:  version,
	}
}
