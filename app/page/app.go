package page

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"querent/engine/importer"

	"querent/engine"
	"querent/engine/ask"
	"querent/engine/files"
	"querent/engine/glossary"
	"querent/engine/profile"
)

// Events carries progress and changes to the page: Wails' runtime events
// in the desktop app, Server-Sent Events in the browser mode.
type Events interface {
	Emit(name string, data any)
	// SetTitle sets the window's title (the browser mode sets the page's).
	SetTitle(title string)
}

// Dialogs are the desktop's native file dialogs; the browser mode has none
// (the page asks for a path instead), and its methods return ErrNoDialogs.
type Dialogs interface {
	OpenFile(title string, patterns []FileFilter) (string, error)
	OpenFiles(title string, patterns []FileFilter) ([]string, error)
	SaveFile(title, defaultName string, patterns []FileFilter) (string, error)
}

// FileFilter is one entry of a file dialog's type list.
type FileFilter struct {
	Name    string // "SQLite databases"
	Pattern string // "*.sqlite;*.db"
}

// ErrNoDialogs says that this face has no native dialogs.
var ErrNoDialogs = engine.Errorf(engine.CodeUsage, "this window has no file dialog").WithHint("type the file's path instead")

// Deps are the engine's parts, wired by the binaries.
type Deps struct {
	// Open opens a database read-only: a SQLite file, a PostgreSQL
	// connection string, or "" for the bundled demo.
	Open func(ctx context.Context, target string, opts engine.OpenOptions) (engine.Database, error)
	// Connect opens the database a connection object names (the
	// "Connect to PostgreSQL" dialog).
	Connect func(ctx context.Context, c engine.Connection, opts engine.OpenOptions) (engine.Database, error)
	// Model connects to Ollama at host ("" → $OLLAMA_HOST or the default).
	Model func(host string, timeout time.Duration) (engine.Model, error)
	// OpenAI connects to an OpenAI-compatible server at its API root
	// (http://127.0.0.1:1234/v1) with an API key ("" → $OPENAI_API_KEY);
	// nil: this build talks to Ollama only.
	OpenAI func(baseURL, apiKey string, timeout time.Duration) (engine.Model, error)
	// History opens the history of questions.
	History func(ctx context.Context) (engine.History, func(), error)
	// Glossary opens the glossaries' store (nil: no glossary).
	Glossary func(ctx context.Context) (glossary.Store, func(), error)
	// Importer is the engine's import use case (engine/importer): it
	// previews and imports, keeping the last preview's first pass.
	Importer *importer.Importer
	// RequireReadOnlyRole refuses every PostgreSQL role that may do more
	// than read, whatever the settings say (querent serve
	// --require-readonly-role).
	RequireReadOnlyRole bool
	// AllowSuperuser lets a PostgreSQL superuser connect (with a warning),
	// whatever the settings say (querent serve --allow-superuser); without
	// it or the setting, the engine refuses one.
	AllowSuperuser bool
	// DataDir is where settings and recent files live ("" → files.DataDir).
	DataDir string
	// Version is Querent's version.
	Version string
}

// Services are the bound services of one window (or one browser page).
type Services struct {
	Datasets  *Datasets
	Ask       *Ask
	Results   *Results
	Export    *Export
	Settings  *Settings
	Evaluate  *Evaluate
	History   *History
	Glossary  *Glossary
	Board     *Board
	Sensitive *Sensitive
	app       *app
}

// app is the state the services share: the open database, the
// conversation, the settings, and the cancel functions of running work.
type app struct {
	deps    Deps
	events  Events
	dialogs Dialogs

	mu      sync.Mutex
	db      engine.Database
	info    *DatasetInfo
	session *engine.Session
	asker   *ask.Asker
	history engine.History
	closeH  func()
	gloss   *glossary.Glossary
	closeG  func()
	cancels map[string]*job
	// boardMu orders the changes of the board's files (a pin while a
	// re-run goes on).
	boardMu sync.Mutex
	// profileCache keeps the start view's profiles per database identity.
	profileCache *profile.Cache
}

// job is a running piece of work that can be cancelled.
type job struct{ cancel context.CancelFunc }

// New returns the services. events and dialogs may be nil (no events, no
// dialogs) and set later with SetEvents/SetDialogs (Wails gives them only at
// startup).
func New(deps Deps, events Events, dialogs Dialogs) *Services {
	a := &app{deps: deps, events: events, dialogs: dialogs, cancels: map[string]*job{}}
	if a.deps.DataDir == "" {
		if d, err := files.DataDir(); err == nil {
			a.deps.DataDir = d
		}
	}
	return &Services{Datasets: &Datasets{a}, Ask: &Ask{a}, Results: &Results{a}, Export: &Export{a}, Settings: &Settings{a}, Evaluate: &Evaluate{a}, History: &History{a},
		Glossary: &Glossary{a}, Board: &Board{a}, Sensitive: &Sensitive{a}, app: a}
}

// SetEvents sets where events go.
func (s *Services) SetEvents(e Events) {
	s.app.mu.Lock()
	defer s.app.mu.Unlock()
	s.app.events = e
}

// SetDialogs sets the native dialogs.
func (s *Services) SetDialogs(d Dialogs) {
	s.app.mu.Lock()
	defer s.app.mu.Unlock()
	s.app.dialogs = d
}

// Close releases the database and the history.
func (s *Services) Close() {
	a := s.app
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, j := range a.cancels {
		j.cancel()
	}
	if a.db != nil {
		a.db.Close()
		a.db = nil
	}
	if a.closeH != nil {
		a.closeH()
		a.closeH = nil
	}
	if a.closeG != nil {
		a.closeG()
		a.closeG = nil
	}
	if a.deps.Importer != nil {
		a.deps.Importer.Close()
	}
}

// Bindings lists the services for Wails' Bind option.
func (s *Services) Bindings() []any {
	return []any{s.Datasets, s.Ask, s.Results, s.Export, s.Settings, s.Evaluate, s.History, s.Glossary, s.Board, s.Sensitive}
}

// stem names the open database for the files made from it: the file's
// name without its extension, "chinook" for the demo, fallback when none
// is open.
func (a *app) stem(fallback string) string {
	a.mu.Lock()
	defer a.mu.Unlock()
	switch {
	case a.info == nil:
		return fallback
	case a.info.Demo:
		return "chinook"
	}
	return strings.TrimSuffix(a.info.Name, filepath.Ext(a.info.Name))
}

// dialogsOrNil returns the native dialogs, nil in the browser mode.
func (a *app) dialogsOrNil() Dialogs {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.dialogs
}

func (a *app) emit(name string, data any) {
	a.mu.Lock()
	e := a.events
	a.mu.Unlock()
	if e != nil {
		e.Emit(name, data)
	}
}

// begin registers a cancellable piece of work of a kind ("ask", "import",
// "export", "pull"), cancelling the previous one of that kind.
func (a *app) begin(kind string) (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	j := &job{cancel: cancel}
	a.mu.Lock()
	if old, ok := a.cancels[kind]; ok {
		old.cancel()
	}
	a.cancels[kind] = j
	a.mu.Unlock()
	return ctx, func() {
		cancel()
		a.mu.Lock()
		// A newer job of the same kind may have taken the slot: leave it.
		if a.cancels[kind] == j {
			delete(a.cancels, kind)
		}
		a.mu.Unlock()
	}
}

func (a *app) cancel(kind string) {
	a.mu.Lock()
	j, ok := a.cancels[kind]
	a.mu.Unlock()
	if ok {
		j.cancel()
	}
}

// running says whether work of a kind is under way.
func (a *app) running(kind string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	_, ok := a.cancels[kind]
	return ok
}

// current returns the open database or an error saying to open one.
func (a *app) current() (engine.Database, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.db == nil {
		return nil, engine.Errorf(engine.CodeUsage, "no database is open").WithHint("open a SQLite file, import a CSV, XLSX, JSON or Parquet file, or open the demo database")
	}
	return a.db, nil
}

// historyStore opens the history once (nil when it cannot be opened).
func (a *app) historyStore(ctx context.Context) engine.History {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.history == nil && a.deps.History != nil {
		if h, closeH, err := a.deps.History(ctx); err == nil {
			a.history, a.closeH = h, closeH
		}
	}
	return a.history
}

// readJSON and writeJSON keep small files in the data folder.
func (a *app) readJSON(name string, v any) error {
	if a.deps.DataDir == "" {
		return os.ErrNotExist
	}
	b, err := os.ReadFile(filepath.Join(a.deps.DataDir, name))
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

func (a *app) writeJSON(name string, v any) error {
	if a.deps.DataDir == "" {
		return errors.New("no data folder")
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	path := filepath.Join(a.deps.DataDir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return files.WriteFileAtomic(path, b, 0o600)
}
