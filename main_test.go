package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"

	"querent/app/page"
	"querent/engine"
	"querent/internal/wiring"
)

// fakeRuntime records what the window asks of Wails' runtime.
type fakeRuntime struct {
	mu     sync.Mutex
	events []emitted
	titles []string
	drop   func(x, y int, paths []string)
	open   wruntime.OpenDialogOptions
	save   wruntime.SaveDialogOptions
}

type emitted struct {
	name string
	data []any
}

func (f *fakeRuntime) api() runtimeAPI {
	return runtimeAPI{
		EventsEmit: func(_ context.Context, name string, data ...any) {
			f.mu.Lock()
			defer f.mu.Unlock()
			f.events = append(f.events, emitted{name, data})
		},
		WindowSetTitle: func(_ context.Context, title string) {
			f.mu.Lock()
			defer f.mu.Unlock()
			f.titles = append(f.titles, title)
		},
		OpenFileDialog: func(_ context.Context, o wruntime.OpenDialogOptions) (string, error) {
			f.open = o
			return "/tmp/chosen.sqlite", nil
		},
		OpenFilesDialog: func(_ context.Context, o wruntime.OpenDialogOptions) ([]string, error) {
			f.open = o
			return []string{"/tmp/a.csv", "/tmp/b.xlsx"}, nil
		},
		SaveFileDialog: func(_ context.Context, o wruntime.SaveDialogOptions) (string, error) {
			f.save = o
			return "", nil // cancelled
		},
		OnFileDrop: func(_ context.Context, cb func(x, y int, paths []string)) { f.drop = cb },
	}
}

func (f *fakeRuntime) named(name string) []emitted {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []emitted
	for _, e := range f.events {
		if e.name == name {
			out = append(out, e)
		}
	}
	return out
}

// newTestWindow wires the real services (the bundled demo, a temporary
// data folder) to a fake runtime.
func newTestWindow(t *testing.T, path string) (*window, *fakeRuntime) {
	t.Helper()
	t.Setenv("QUERENT_DATA_DIR", t.TempDir())
	svc := page.New(wiring.PageDeps("test"), nil, nil)
	t.Cleanup(svc.Close)
	f := &fakeRuntime{}
	return newWindow(svc, path, f.api()), f
}

func TestParseArgs(t *testing.T) {
	abs, err := filepath.Abs("x.sqlite")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args    []string
		want    string
		wantErr error // nil: no error; errAny: some error
	}{
		{nil, "", nil},
		{[]string{"x.sqlite"}, abs, nil},
		{[]string{"--", "x.sqlite"}, abs, nil},
		{[]string{"-psn_0_12345", "x.sqlite"}, abs, nil},
		{[]string{"--version"}, "", errVersion},
		{[]string{"-h"}, "", errHelp},
		{[]string{"--bogus"}, "", errAny},
		{[]string{"a.db", "b.db"}, "", errAny},
		{[]string{" "}, "", errAny},
	}
	for _, tt := range tests {
		got, err := parseArgs(tt.args)
		switch {
		case tt.wantErr == nil && err != nil:
			t.Errorf("parseArgs(%q): unexpected error %v", tt.args, err)
		case tt.wantErr == errAny && err == nil, tt.wantErr != nil && tt.wantErr != errAny && !errors.Is(err, tt.wantErr):
			t.Errorf("parseArgs(%q): got error %v, want %v", tt.args, err, tt.wantErr)
		case got != tt.want:
			t.Errorf("parseArgs(%q) = %q, want %q", tt.args, got, tt.want)
		}
	}
}

var errAny = errors.New("any error")

func TestRunVersionAndUsage(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"--version"}, &out, &errOut); code != 0 || !strings.Contains(out.String(), "querent-desktop") {
		t.Errorf("--version: exit %d, stdout %q", code, out.String())
	}
	out.Reset()
	if code := run([]string{"--nope"}, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "unknown flag --nope") {
		t.Errorf("--nope: exit %d, stderr %q", code, errOut.String())
	}
}

// Without the desktop build tag, wails.Run returns an error instead of
// opening a window: the binary says so and exits 1.
func TestRunWithoutDesktopTag(t *testing.T) {
	t.Setenv("QUERENT_DATA_DIR", t.TempDir())
	t.Setenv("DISPLAY", ":none")
	var out, errOut bytes.Buffer
	if code := run(nil, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "querent-desktop:") {
		t.Errorf("exit %d, stderr %q; want 1 and an error", code, errOut.String())
	}
}

func TestRunWithoutDisplay(t *testing.T) {
	defer func(old bool) { needsDisplay = old }(needsDisplay)
	needsDisplay = true // as in the Linux desktop build (gtk_linux.go)
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	var out, errOut bytes.Buffer
	if code := run(nil, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "no display") || !strings.Contains(errOut.String(), "querent serve") {
		t.Errorf("exit %d, stderr %q; want 1 and a note on the browser mode", code, errOut.String())
	}
}

func TestOptions(t *testing.T) {
	w, _ := newTestWindow(t, "")
	o := w.options()
	if o.Title != "Querent" || o.Width != 1280 || o.Height != 860 || o.MinWidth != 900 || o.MinHeight != 600 {
		t.Errorf("title/size = %q %dx%d min %dx%d", o.Title, o.Width, o.Height, o.MinWidth, o.MinHeight)
	}
	if got, want := len(o.Bind), len(w.svc.Bindings()); got != want || want == 0 {
		t.Errorf("bound %d structs, want %d", got, want)
	}
	if o.AssetServer == nil || o.AssetServer.Assets == nil {
		t.Fatal("no assets")
	}
	if _, err := o.AssetServer.Assets.Open("index.html"); err != nil {
		t.Errorf("assets have no index.html: %v", err)
	}
	if o.DragAndDrop == nil || !o.DragAndDrop.EnableFileDrop {
		t.Error("file drop is off")
	}
	if o.OnStartup == nil || o.OnShutdown == nil || o.OnDomReady == nil {
		t.Error("lifecycle callbacks missing")
	}
	doc, ok := o.ErrorFormatter(engine.Errorf(engine.CodeUsage, "no database is open").WithHint("open one")).(engine.ErrorDoc)
	if !ok || doc.Type != "usage" || doc.Message != "no database is open" || doc.Hint != "open one" {
		t.Errorf("ErrorFormatter = %#v", doc)
	}
	if len(icon) < 1000 || !bytes.HasPrefix(icon, []byte("\x89PNG")) {
		t.Error("the embedded icon is not a PNG")
	}
}

func TestStartupOpensDemo(t *testing.T) {
	w, f := newTestWindow(t, "")
	w.startup(context.Background())
	info, err := w.svc.Datasets.Current()
	if err != nil || info == nil || !info.Demo {
		t.Fatalf("Current() = %+v, %v; want the demo", info, err)
	}
	if len(f.titles) != 1 || !strings.HasSuffix(f.titles[0], "— Querent") {
		t.Errorf("titles = %q", f.titles)
	}
	if ev := f.named("dataset:changed"); len(ev) != 1 || len(ev[0].data) != 1 {
		t.Errorf("dataset:changed events = %+v", ev)
	}
	w.domReady(context.Background())
	if ev := f.named(EventStartupError); len(ev) != 0 {
		t.Errorf("unexpected %s: %+v", EventStartupError, ev)
	}

	// A drop becomes file:dropped with the paths; an empty drop nothing.
	if f.drop == nil {
		t.Fatal("OnFileDrop was not registered")
	}
	f.drop(10, 20, []string{"/data/a.csv", "/data/b.sqlite"})
	f.drop(0, 0, nil)
	ev := f.named(EventFileDropped)
	if len(ev) != 1 || !reflect.DeepEqual(ev[0].data, []any{[]string{"/data/a.csv", "/data/b.sqlite"}}) {
		t.Errorf("%s events = %+v", EventFileDropped, ev)
	}

	// After shutdown nothing reaches the runtime, and the database is closed.
	w.shutdown(context.Background())
	n := len(f.titles)
	if _, err := w.svc.Datasets.OpenDemo(); err != nil {
		t.Fatal(err)
	}
	if len(f.titles) != n {
		t.Error("a title reached the runtime after shutdown")
	}
}

func TestStartupErrorIsToldOnce(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.sqlite")
	for _, order := range []string{"open first", "page first"} {
		t.Run(order, func(t *testing.T) {
			w, f := newTestWindow(t, missing)
			if order == "open first" {
				w.startup(context.Background())
				if ev := f.named(EventStartupError); len(ev) != 0 {
					t.Fatal("told before the page loaded")
				}
				w.domReady(context.Background())
			} else {
				w.domReady(context.Background())
				w.startup(context.Background())
			}
			w.domReady(context.Background()) // a reload does not repeat it
			ev := f.named(EventStartupError)
			if len(ev) != 1 {
				t.Fatalf("%s events = %+v, want 1", EventStartupError, ev)
			}
			doc, ok := ev[0].data[0].(engine.ErrorDoc)
			if !ok || doc.Type != "database" || !strings.Contains(doc.Message, "missing.sqlite") {
				t.Errorf("error doc = %#v", ev[0].data[0])
			}
			if info, _ := w.svc.Datasets.Current(); info != nil {
				t.Errorf("a database is open: %+v", info)
			}
		})
	}
}

func TestDialogs(t *testing.T) {
	w, f := newTestWindow(t, "")
	w.startup(context.Background())

	got, err := w.svc.Datasets.ChooseFile()
	if err != nil || got != "/tmp/chosen.sqlite" {
		t.Errorf("ChooseFile() = %q, %v", got, err)
	}
	if f.open.Title == "" || len(f.open.Filters) == 0 || !strings.HasPrefix(f.open.Filters[0].Pattern, "*.sqlite;*.sqlite3;*.db;*.db3;") ||
		!strings.Contains(f.open.Filters[0].Pattern, "*.parquet") || f.open.Filters[0].DisplayName != "SQLite databases and data files" {
		t.Errorf("open options = %+v", f.open)
	}
	files, err := w.svc.Datasets.ChooseImportFiles()
	if err != nil || len(files) != 2 {
		t.Errorf("ChooseImportFiles() = %q, %v", files, err)
	}

	dir := t.TempDir()
	if p, err := w.svc.Export.ChooseFile(filepath.Join(dir, "report.xlsx")); err != nil || p != "" {
		t.Errorf("cancelled save = %q, %v; want \"\", nil", p, err)
	}
	if f.save.DefaultDirectory != dir || f.save.DefaultFilename != "report.xlsx" || !f.save.CanCreateDirectories {
		t.Errorf("save options = %+v", f.save)
	}
	if _, err := w.svc.Export.ChooseFile(filepath.Join(dir, "nope", "r.csv")); err != nil {
		t.Fatal(err)
	}
	if f.save.DefaultDirectory != "" || f.save.DefaultFilename != "r.csv" {
		t.Errorf("a missing folder was passed on: %+v", f.save)
	}
	if _, err := w.svc.Export.ChooseFile("plain.csv"); err != nil {
		t.Fatal(err)
	}
	if f.save.DefaultDirectory != "" || f.save.DefaultFilename != "plain.csv" {
		t.Errorf("save options = %+v", f.save)
	}
}

func TestFileFilters(t *testing.T) {
	if got := fileFilters(nil); got != nil {
		t.Errorf("fileFilters(nil) = %v", got)
	}
	got := fileFilters([]page.FileFilter{{Name: "CSV", Pattern: "*.csv"}, {Name: "All files", Pattern: "*"}})
	want := []wruntime.FileFilter{{DisplayName: "CSV", Pattern: "*.csv"}, {DisplayName: "All files", Pattern: "*"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestMain(m *testing.M) {
	wiring.RunWorkerIfAsked() // the services' databases open in workers: this binary, started again
	// The services write recent files and history to the data folder:
	// never the user's, even for a test that forgets to set one.
	dir, err := os.MkdirTemp("", "querent-main-test-")
	if err != nil {
		panic(err)
	}
	os.Setenv("QUERENT_DATA_DIR", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
