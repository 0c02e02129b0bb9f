// Command querent-desktop is Querent's desktop app: the services of package
// app/page bound into a Wails window that shows the embedded page
// (package frontend). This file is wiring only: the services hold the
// behaviour, and every call into Wails' runtime sits behind the
// page.Events and page.Dialogs interfaces, built from the context
// Wails hands to OnStartup (the runtime calls log.Fatalf on any other).
//
// The real window needs the build tags desktop,production (and webkit2_41
// on Linux): `make build` runs `go tool wails build -tags webkit2_41`.
// Without them wails.Run only returns an error, so `go build ./...`,
// `go vet ./...` and `go test ./...` work with CGO_ENABLED=0 anywhere.
//
// Usage: querent-desktop [FILE.sqlite] — opens FILE read-only, or the
// bundled demo database.
package main

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"
	"github.com/wailsapp/wails/v2/pkg/options/mac"
	"github.com/wailsapp/wails/v2/pkg/options/windows"
	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"

	"querent/app/page"
	"querent/frontend"
	"querent/internal/wiring"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

// needsDisplay is set where the window is GTK's (gtk_linux.go): it needs
// DISPLAY or WAYLAND_DISPLAY.
var needsDisplay bool

// icon is the window's icon on Linux and in the macOS About box.
//
//go:embed build/appicon.png
var icon []byte

// The events this file emits, beside the services' own; page.PageEvents
// lists them all.
const (
	// EventFileDropped carries the absolute paths ([]string) of files
	// dropped on the window; the page opens or imports them.
	EventFileDropped = page.EventFileDropped
	// EventStartupError carries the page.ErrorDoc of a database named
	// on the command line that could not be opened; it is sent once, when
	// the page has loaded.
	EventStartupError = page.EventStartupError
)

func main() {
	wiring.RunWorkerIfAsked() // this process may be a query worker
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is main without the exit, for tests.
func run(args []string, stdout, stderr io.Writer) int {
	path, err := parseArgs(args)
	switch {
	case errors.Is(err, errVersion):
		fmt.Fprintln(stdout, "querent-desktop", version)
		return 0
	case errors.Is(err, errHelp):
		fmt.Fprint(stdout, usage)
		return 0
	case err != nil:
		fmt.Fprintf(stderr, "querent-desktop: %v\n%s", err, usage)
		return 2
	}
	if needsDisplay && os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		fmt.Fprintln(stderr, "querent-desktop: no display (neither DISPLAY nor WAYLAND_DISPLAY is set): "+
			"start it in a desktop session, or use the browser mode: querent serve")
		return 1
	}
	svc := page.New(wiring.PageDeps(version), nil, nil)
	defer svc.Close() // OnShutdown closes them too; Close may run twice
	w := newWindow(svc, path, wailsRuntime)
	if err := wails.Run(w.options()); err != nil {
		fmt.Fprintln(stderr, "querent-desktop:", err)
		return 1
	}
	return 0
}

const usage = `usage: querent-desktop [FILE.sqlite]
Opens FILE read-only in Querent's window, or the bundled demo database.
The command line, the browser mode and the MCP server are in the console binary, querent.
`

var (
	errVersion = errors.New("version asked")
	errHelp    = errors.New("help asked")
)

// parseArgs returns the database to open ("" for the demo). macOS's old
// process serial number argument (-psn_…) is ignored.
func parseArgs(args []string) (string, error) {
	var paths []string
	flags := true
	for _, a := range args {
		switch {
		case flags && a == "--":
			flags = false
		case flags && (a == "--version" || a == "-version"):
			return "", errVersion
		case flags && (a == "-h" || a == "-help" || a == "--help"):
			return "", errHelp
		case flags && strings.HasPrefix(a, "-psn_"):
		case flags && strings.HasPrefix(a, "-") && a != "-":
			return "", fmt.Errorf("unknown flag %s", a)
		default:
			paths = append(paths, a)
		}
	}
	switch len(paths) {
	case 0:
		return "", nil
	case 1:
		if strings.TrimSpace(paths[0]) == "" {
			return "", errors.New("the database's path is empty")
		}
		return filepath.Abs(paths[0])
	default:
		return "", fmt.Errorf("one database at a time (got %d paths)", len(paths))
	}
}

// window joins the services to Wails: the options, and the lifecycle
// callbacks that Wails calls with its own context.
type window struct {
	svc  *page.Services
	path string // the database named on the command line; "" opens the demo
	rt   runtimeAPI

	mu         sync.Mutex
	ready      bool            // the page has loaded (OnDomReady)
	startupErr error           // opening at startup failed, not told yet
	readyCtx   context.Context // the context OnDomReady came with
}

func newWindow(svc *page.Services, path string, rt runtimeAPI) *window {
	return &window{svc: svc, path: path, rt: rt}
}

// options are the Wails application options.
func (w *window) options() *options.App {
	return &options.App{
		Title:     "Querent",
		Width:     1280,
		Height:    860,
		MinWidth:  900,
		MinHeight: 600,
		AssetServer: &assetserver.Options{
			Assets: frontend.Assets(),
		},
		BackgroundColour: &options.RGBA{R: 255, G: 255, B: 255, A: 255},
		Bind:             w.svc.Bindings(),
		OnStartup:        w.startup,
		OnDomReady:       w.domReady,
		OnShutdown:       w.shutdown,
		ErrorFormatter:   func(err error) any { return page.ErrorDoc(err) },
		DragAndDrop: &options.DragAndDrop{
			// The webview's own drop stays on (on Linux, turning it off also
			// stops Wails' file drop); Wails' runtime keeps a dropped file
			// from replacing the page.
			EnableFileDrop: true,
		},
		Linux: &linux.Options{
			Icon:        icon,
			ProgramName: "querent",
			// Software rendering: hardware acceleration leaves the window
			// blank on some drivers and virtual machines (wails#2977).
			WebviewGpuPolicy: linux.WebviewGpuPolicyNever,
		},
		Windows: &windows.Options{},
		Mac: &mac.Options{
			About: &mac.AboutInfo{Title: "Querent " + version, Message: "Ask your data, offline.", Icon: icon},
		},
	}
}

// startup gets Wails' context: it gives the services their events and
// dialogs, turns file drops into EventFileDropped, then opens the database
// named on the command line or the demo. On Linux it runs while the page
// loads: the page asks Datasets.Current and listens for dataset:changed.
func (w *window) startup(ctx context.Context) {
	w.svc.SetEvents(events{ctx: ctx, rt: w.rt})
	w.svc.SetDialogs(dialogs{ctx: ctx, rt: w.rt})
	w.rt.OnFileDrop(ctx, func(_, _ int, paths []string) {
		if len(paths) > 0 {
			w.rt.EventsEmit(ctx, EventFileDropped, paths)
		}
	})
	var err error
	if w.path == "" {
		_, err = w.svc.Datasets.OpenDemo()
	} else {
		_, err = w.svc.Datasets.Open(w.path)
	}
	if err != nil {
		w.mu.Lock()
		w.startupErr = err
		w.mu.Unlock()
		w.tellStartupError()
	}
}

// domReady tells the page of a failed startup open, once it can listen.
func (w *window) domReady(ctx context.Context) {
	w.mu.Lock()
	w.ready, w.readyCtx = true, ctx
	w.mu.Unlock()
	w.tellStartupError()
}

// tellStartupError sends the startup error once both the open has failed
// and the page has loaded, whichever comes last.
func (w *window) tellStartupError() {
	w.mu.Lock()
	err, ctx := w.startupErr, w.readyCtx
	if !w.ready || err == nil {
		w.mu.Unlock()
		return
	}
	w.startupErr = nil
	w.mu.Unlock()
	w.rt.EventsEmit(ctx, EventStartupError, page.ErrorDoc(err))
}

// shutdown stops events and dialogs (Wails' context ends) and closes the
// services, cancelling running work.
func (w *window) shutdown(context.Context) {
	w.svc.SetEvents(nil)
	w.svc.SetDialogs(nil)
	w.svc.Close()
}

// runtimeAPI is the part of Wails' runtime the window uses, as function
// fields so that tests can fake it (the real functions need Wails' context).
type runtimeAPI struct {
	EventsEmit      func(ctx context.Context, name string, data ...any)
	WindowSetTitle  func(ctx context.Context, title string)
	OpenFileDialog  func(ctx context.Context, o wruntime.OpenDialogOptions) (string, error)
	OpenFilesDialog func(ctx context.Context, o wruntime.OpenDialogOptions) ([]string, error)
	SaveFileDialog  func(ctx context.Context, o wruntime.SaveDialogOptions) (string, error)
	OnFileDrop      func(ctx context.Context, callback func(x, y int, paths []string))
}

// wailsRuntime is the real runtime.
var wailsRuntime = runtimeAPI{
	EventsEmit:      wruntime.EventsEmit,
	WindowSetTitle:  wruntime.WindowSetTitle,
	OpenFileDialog:  wruntime.OpenFileDialog,
	OpenFilesDialog: wruntime.OpenMultipleFilesDialog,
	SaveFileDialog:  wruntime.SaveFileDialog,
	OnFileDrop:      wruntime.OnFileDrop,
}

// events are page.Events over Wails' events and window title.
type events struct {
	ctx context.Context
	rt  runtimeAPI
}

var _ page.Events = events{}

// Emit sends an event to the page (one argument: data).
func (e events) Emit(name string, data any) { e.rt.EventsEmit(e.ctx, name, data) }

// SetTitle sets the window's title.
func (e events) SetTitle(title string) { e.rt.WindowSetTitle(e.ctx, title) }

// dialogs are page.Dialogs over Wails' native file dialogs. A cancelled
// dialog answers "" (or no paths) and no error.
type dialogs struct {
	ctx context.Context
	rt  runtimeAPI
}

var _ page.Dialogs = dialogs{}

// OpenFile asks for one existing file.
func (d dialogs) OpenFile(title string, patterns []page.FileFilter) (string, error) {
	return d.rt.OpenFileDialog(d.ctx, wruntime.OpenDialogOptions{Title: title, Filters: fileFilters(patterns)})
}

// OpenFiles asks for one or more existing files.
func (d dialogs) OpenFiles(title string, patterns []page.FileFilter) ([]string, error) {
	return d.rt.OpenFilesDialog(d.ctx, wruntime.OpenDialogOptions{Title: title, Filters: fileFilters(patterns)})
}

// SaveFile asks for a file to write; defaultName may carry a folder, used
// when it exists (Wails refuses a missing default folder).
func (d dialogs) SaveFile(title, defaultName string, patterns []page.FileFilter) (string, error) {
	o := wruntime.SaveDialogOptions{Title: title, DefaultFilename: defaultName, Filters: fileFilters(patterns), CanCreateDirectories: true}
	if dir := filepath.Dir(defaultName); dir != "." && defaultName != "" {
		o.DefaultFilename = filepath.Base(defaultName)
		if st, err := os.Stat(dir); err == nil && st.IsDir() {
			o.DefaultDirectory = dir
		}
	}
	return d.rt.SaveFileDialog(d.ctx, o)
}

// fileFilters maps the services' filters to Wails' ("*.a;*.b" patterns).
func fileFilters(fs []page.FileFilter) []wruntime.FileFilter {
	if len(fs) == 0 {
		return nil
	}
	out := make([]wruntime.FileFilter, 0, len(fs))
	for _, f := range fs {
		out = append(out, wruntime.FileFilter{DisplayName: f.Name, Pattern: f.Pattern})
	}
	return out
}
