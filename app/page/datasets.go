package page

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"querent/engine"
	"querent/engine/files"
	"querent/engine/imports"
	"querent/engine/words"
)

// Datasets opens databases, imports files and describes the open database.
type Datasets struct{ a *app }

// DatasetInfo describes the open database.
type DatasetInfo struct {
	Name      string   `json:"name"`       // as shown: the file name, the demo's name, or a PostgreSQL database's name
	Path      string   `json:"path"`       // the file's absolute path; "" for the demo and a server
	Dialect   string   `json:"dialect"`    // "sqlite" or "postgresql"
	Server    string   `json:"server"`     // PostgreSQL: postgres://role@host:port/db (never a password); "" for a file
	Demo      bool     `json:"demo"`       // the bundled demo database
	ReadOnly  bool     `json:"read_only"`  // always true: Querent never writes a database it opens
	Tables    int      `json:"tables"`     // the user's tables
	Views     int      `json:"views"`      // the user's views
	SizeBytes int64    `json:"size_bytes"` // the file's size
	Warnings  []string `json:"warnings"`   // as the engine wrote them
	// WarningsSaid are Warnings in each of the page's languages, in its
	// words (a PostgreSQL role that may write, a WAL snapshot…).
	WarningsSaid []words.Said `json:"warnings_said"`
	Title        string       `json:"title"` // the window title
}

// RecentFile is a database opened before.
type RecentFile struct {
	Path     string    `json:"path"`
	Name     string    `json:"name"`
	OpenedAt time.Time `json:"opened_at"`
	Exists   bool      `json:"exists"`
}

// ImportRequest is an import from the page: the engine's request, and
// whether to open the result.
type ImportRequest struct {
	imports.Request
	// Open opens the target when the import is done.
	Open bool `json:"open"`
}

// Current returns the open database, or nil when none is open.
func (d *Datasets) Current() (*DatasetInfo, error) {
	d.a.mu.Lock()
	defer d.a.mu.Unlock()
	return d.a.info, nil
}

// OpenDemo opens the bundled Chinook demo database.
func (d *Datasets) OpenDemo() (*DatasetInfo, error) { return d.open("") }

// Open opens a SQLite file read-only, a PostgreSQL database named by its
// connection URL, or a CSV, XLSX, JSON or Parquet file, imported on its
// first open into a workspace in Querent's data folder (and again when it
// changes) and shown as the file.
func (d *Datasets) Open(path string) (*DatasetInfo, error) {
	if strings.TrimSpace(path) == "" {
		return nil, engine.Errorf(engine.CodeUsage, "no file was given").WithHint("choose a .sqlite or .db file, or a CSV, XLSX, JSON or Parquet file")
	}
	return d.open(path)
}

func (d *Datasets) open(path string) (*DatasetInfo, error) {
	return d.openWith(path == "", func(ctx context.Context, opts engine.OpenOptions) (engine.Database, error) {
		return d.a.deps.Open(ctx, path, opts)
	})
}

// openOptions are the choices every open of this window makes: a
// PostgreSQL role that may write is refused when the settings (or the
// command line that started the browser mode) say so; a superuser is
// refused unless they allow it.
func (a *app) openOptions() engine.OpenOptions {
	s := a.settings()
	return engine.OpenOptions{RequireReadOnlyRole: a.deps.RequireReadOnlyRole || s.RequireReadOnlyRole,
		AllowSuperuser: a.deps.AllowSuperuser || s.AllowSuperuser}
}

// openWith opens the database that open returns and makes it the
// window's.
func (d *Datasets) openWith(demo bool, open func(context.Context, engine.OpenOptions) (engine.Database, error)) (*DatasetInfo, error) {
	// Long work on the open database would fail halfway if it closed.
	for kind, what := range map[string]string{"eval": "An evaluation (or a draft)", "export": "An export"} {
		if d.a.running(kind) {
			return nil, engine.Errorf(engine.CodeUsage, "%s is running on the open database", what).WithHint(
				"wait for it to finish, or cancel it, then open the other database")
		}
	}
	ctx, done := d.a.begin("open")
	defer done()
	// The start view of the database being left is not wanted any more.
	d.a.cancel("explore")
	db, err := open(ctx, d.a.openOptions())
	if err != nil {
		return nil, err
	}
	s, err := db.Schema(ctx)
	if err != nil {
		db.Close()
		return nil, err
	}
	info := &DatasetInfo{Name: db.Name(), ReadOnly: true, Demo: demo, Dialect: db.Dialect(), Warnings: append([]string{}, db.Warnings()...),
		WarningsSaid: pageWarnings(engine.DatabaseWarnings(db))}
	if path := files.DatabasePath(db); path != "" {
		info.Path = path
		info.Name = filepath.Base(path)
		if st, err := os.Stat(info.Path); err == nil {
			info.SizeBytes = st.Size()
		}
	} else if !demo {
		info.Server = db.Name()
		info.Name = serverDatabaseName(db.Name())
	}
	for _, t := range s.Tables {
		if t.Internal {
			continue
		}
		if t.Kind == "view" {
			info.Views++
		} else {
			info.Tables++
		}
	}
	info.Title = fmt.Sprintf("%s (read-only) — Querent", info.Name)
	a := d.a
	a.mu.Lock()
	old := a.db
	a.db, a.info = db, info
	a.session = &engine.Session{Database: db.Name()}
	a.asker = nil
	events := a.events
	a.mu.Unlock()
	if old != nil {
		old.Close()
	}
	if info.Path != "" {
		d.remember(info.Path)
	}
	if events != nil {
		events.SetTitle(info.Title)
		events.Emit(EventDatasetChanged, info)
	}
	return info, nil
}

// Recent lists the databases opened before, newest first.
func (d *Datasets) Recent() ([]RecentFile, error) {
	var rs []RecentFile
	_ = d.a.readJSON("recent.json", &rs)
	out := []RecentFile{}
	for _, r := range rs {
		_, err := os.Stat(r.Path)
		r.Exists = err == nil
		out = append(out, r)
	}
	return out, nil
}

// remember puts a file at the top of the recent list (at most 10).
func (d *Datasets) remember(path string) {
	var rs []RecentFile
	_ = d.a.readJSON("recent.json", &rs)
	out := []RecentFile{{Path: path, Name: filepath.Base(path), OpenedAt: time.Now().UTC()}}
	for _, r := range rs {
		if r.Path != path && len(out) < 10 {
			out = append(out, r)
		}
	}
	_ = d.a.writeJSON("recent.json", out)
}

// ForgetRecent removes a file from the recent list (a file that was moved
// or deleted, or one the user wants off the list) and returns the list.
func (d *Datasets) ForgetRecent(path string) ([]RecentFile, error) {
	var rs []RecentFile
	_ = d.a.readJSON("recent.json", &rs)
	kept := []RecentFile{}
	for _, r := range rs {
		if r.Path != path {
			kept = append(kept, r)
		}
	}
	if len(kept) != len(rs) {
		if err := d.a.writeJSON("recent.json", kept); err != nil {
			return nil, err
		}
	}
	return d.Recent()
}

// dataFilePatterns are the names of the files Querent imports (and opens
// through a workspace).
const dataFilePatterns = "*.csv;*.tsv;*.txt;*.xlsx;*.xlsm;*.json;*.jsonl;*.ndjson;*.parquet"

// ChooseFile shows the desktop's open dialog for a database.
func (d *Datasets) ChooseFile() (string, error) {
	dl := d.dialogs()
	if dl == nil {
		return "", ErrNoDialogs
	}
	return dl.OpenFile("Open a SQLite database or a data file", []FileFilter{
		{Name: "SQLite databases and data files", Pattern: "*.sqlite;*.sqlite3;*.db;*.db3;" + dataFilePatterns},
		{Name: "SQLite databases", Pattern: "*.sqlite;*.sqlite3;*.db;*.db3"},
		{Name: "CSV, Excel, JSON and Parquet files", Pattern: dataFilePatterns}, {Name: "All files", Pattern: "*"}})
}

// ChooseImportFiles shows the desktop's open dialog for CSV/XLSX files.
func (d *Datasets) ChooseImportFiles() ([]string, error) {
	dl := d.dialogs()
	if dl == nil {
		return nil, ErrNoDialogs
	}
	return dl.OpenFiles("Choose CSV, XLSX, JSON or Parquet files to import", []FileFilter{
		{Name: "CSV, Excel, JSON and Parquet files", Pattern: dataFilePatterns}, {Name: "All files", Pattern: "*"}})
}

// ChooseNewDatabase shows the desktop's save dialog for an import's target.
func (d *Datasets) ChooseNewDatabase(defaultName string) (string, error) {
	dl := d.dialogs()
	if dl == nil {
		return "", ErrNoDialogs
	}
	return dl.SaveFile("Save the new database as", defaultName, []FileFilter{{Name: "SQLite databases", Pattern: "*.sqlite;*.db"}})
}

func (d *Datasets) dialogs() Dialogs { return d.a.dialogsOrNil() }

// Schema describes the open database.
func (d *Datasets) Schema() (*engine.Schema, error) {
	db, err := d.a.current()
	if err != nil {
		return nil, err
	}
	ctx, done := d.a.begin("schema")
	defer done()
	return db.Schema(ctx)
}

// Import imports CSV/XLSX files (progress events "import:progress"; Cancel
// stops it, leaving the target as it was) and, when asked, opens the
// result.
func (d *Datasets) Import(req ImportRequest) (*imports.Report, error) {
	if d.a.deps.Importer == nil {
		return nil, engine.Errorf(engine.CodeInternal, "this build cannot import")
	}
	if err := d.a.refuseOpenTarget(req.Target); err != nil {
		return nil, err
	}
	ctx, done := d.a.begin("import")
	defer done()
	req.Progress = func(p imports.Progress) { d.a.emit(EventImportProgress, p) }
	rep, err := d.a.deps.Importer.Import(ctx, req.Request)
	if err != nil {
		return nil, err
	}
	pageDocs(rep.Errors)
	if req.Open {
		if _, err := d.open(req.Target); err != nil {
			return rep, err
		}
	}
	return rep, nil
}

// PreviewImport says what Import would do with req, writing nothing: per
// table how its file is read, its columns (each with its type, the reason,
// the values that do not fit a chosen type and where), the first rows as
// they will be stored, its name and what writing it would do in the
// target; what would stop the import is in the plan's errors. A large
// file is sampled (and the plan says so). The files read are kept until
// the next preview, so that changing a column's choices does not read
// them again, and the import after it reads them only once more. A new
// preview cancels one still running (progress events "import:progress").
func (d *Datasets) PreviewImport(req ImportRequest) (*imports.Plan, error) {
	if d.a.deps.Importer == nil {
		return nil, engine.Errorf(engine.CodeInternal, "this build cannot import")
	}
	if len(req.Inputs) == 0 {
		return nil, engine.Errorf(engine.CodeUsage, "no files to import").WithHint("choose one or more CSV, XLSX, JSON or Parquet files")
	}
	ctx, done := d.a.begin("preview")
	defer done()
	req.Progress = func(p imports.Progress) { d.a.emit(EventImportProgress, p) }
	plan, err := d.a.deps.Importer.Preview(ctx, req.Request)
	if err != nil {
		return nil, err
	}
	if err := d.a.refuseOpenTarget(req.Target); err != nil {
		plan.Errors = append(plan.Errors, engine.NewErrorDoc(err))
	}
	pageDocs(plan.Errors)
	return plan, nil
}

// ForgetPreview lets go of the files the last preview read (the import
// dialog was closed without importing).
func (d *Datasets) ForgetPreview() error {
	d.a.cancel("preview")
	if d.a.deps.Importer != nil {
		d.a.deps.Importer.Close()
	}
	return nil
}

// CancelImport stops a running import.
func (d *Datasets) CancelImport() error {
	d.a.cancel("import")
	return nil
}

// refuseOpenTarget refuses an import into the open database: the window
// shows it read-only, and Querent never writes a database it has open.
// Files are compared by identity (files.DatabaseFileRole: a symlink, a
// hard link or a path through ".." is caught), the database's -wal,
// -journal and -shm files included.
func (a *app) refuseOpenTarget(target string) error {
	a.mu.Lock()
	db := a.db
	a.mu.Unlock()
	if db == nil || strings.TrimSpace(target) == "" {
		return nil
	}
	name := filepath.Base(target)
	switch role := files.DatabaseFileRole(target, files.DatabasePath(db)); role {
	case "":
		return nil
	case "database":
		return engine.Errorf(engine.CodeImport, "%s is the database open in this window, which Querent only reads: an import never writes into it", name).
			WithHint("import into a new file (for example %s), then open it", newTargetName(target))
	default:
		return engine.Errorf(engine.CodeImport, "%s is the %s file of the database open in this window: an import never writes it", name, role).
			WithHint("import into a new file (for example %s), then open it", newTargetName(target))
	}
}

// newTargetName proposes a new database file name beside target.
func newTargetName(target string) string {
	base := filepath.Base(target)
	for _, s := range []string{"-wal", "-journal", "-shm"} {
		base = strings.TrimSuffix(base, s)
	}
	return strings.TrimSuffix(base, filepath.Ext(base)) + "-imported.sqlite"
}
