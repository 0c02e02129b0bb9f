package page_test

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"querent/app/page"
	"querent/engine"
	"querent/engine/export"
	"querent/engine/imports"
)

// folder returns each file's sha256 in dir, by name.
func folder(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		m[e.Name()] = fmt.Sprintf("%x", sha256.Sum256(b))
	}
	return m
}

// TestServicesNeverWriteTheOpenDatabase reproduces issue 11 §4 in the
// services the window and the browser mode share: an export or an import
// aimed at the open database (by its path or a link to it) is refused,
// and the file and its folder stay as they were.
func TestServicesNeverWriteTheOpenDatabase(t *testing.T) {
	svc, _ := newServices(t)
	b, err := os.ReadFile("../../engine/sqlite/demo/Chinook_Sqlite.sqlite")
	if err != nil {
		t.Fatal(err)
	}
	src := t.TempDir()
	csv := filepath.Join(src, "in.csv")
	os.WriteFile(csv, []byte("name,age\nAnn,31\n"), 0o644)

	// The user's own database, and one that Querent's import made.
	mine := filepath.Join(t.TempDir(), "mine.sqlite")
	os.WriteFile(mine, b, 0o644)
	made := filepath.Join(t.TempDir(), "made.sqlite")
	if _, err := svc.Datasets.Import(page.ImportRequest{Request: imports.Request{Target: made, Inputs: []string{csv}}}); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{mine, made} {
		if _, err := svc.Datasets.Open(path); err != nil {
			t.Fatal(err)
		}
		dir := filepath.Dir(path)
		link := filepath.Join(dir, "link.csv")
		haveLink := os.Symlink(path, link) == nil
		before := folder(t, dir)
		targets := []string{path, filepath.Join(dir, "..", filepath.Base(dir), filepath.Base(path))}
		if haveLink {
			targets = append(targets, link)
		}
		for _, target := range targets {
			for _, format := range []string{"csv", "xlsx"} {
				_, err := svc.Export.Run(export.Request{SQL: "SELECT 1", Out: target, Format: format, Force: true})
				if e := engine.AsError(err); e == nil || e.Code != engine.CodeExport || !strings.Contains(e.Message, "never replaces") {
					t.Errorf("export %s (%s) onto the open %s: %v", filepath.Base(target), format, filepath.Base(path), err)
				}
			}
			for _, req := range []imports.Request{
				{Target: target, Inputs: []string{csv}, Table: "injected"},
				{Target: target, Inputs: []string{csv}, Table: "in", Replace: true},
				{Target: target, Inputs: []string{csv}, Table: "in", Append: true},
				{Target: target, Inputs: []string{csv}, Table: "in", Replace: true, ReplaceUserTable: true},
			} {
				_, err := svc.Datasets.Import(page.ImportRequest{Request: req})
				if e := engine.AsError(err); e == nil || e.Code != engine.CodeImport || !strings.Contains(e.Hint, "new") {
					t.Errorf("import %+v into the open %s: %v", req, filepath.Base(path), err)
				}
			}
		}
		if after := folder(t, dir); !reflect.DeepEqual(after, before) {
			t.Errorf("%s: the folder changed: %v, was %v", filepath.Base(path), after, before)
		}
	}
	// Into a new file: fine, and the open database is still the one shown.
	if _, err := svc.Datasets.Import(page.ImportRequest{Request: imports.Request{Target: filepath.Join(src, "new.sqlite"), Inputs: []string{csv}}}); err != nil {
		t.Errorf("import into a new file: %v", err)
	}
	if cur, _ := svc.Datasets.Current(); cur == nil || cur.Path != made {
		t.Errorf("open: %+v", cur)
	}
}

// TestSettingsBounds (issue 11 §6): the page's row cap and timeout are
// held to the engine's ceilings: Save refuses what is past them, and a
// settings file written with a longer timeout is lowered on reading,
// keeping the user's other choices.
func TestSettingsBounds(t *testing.T) {
	svc, _ := newServices(t)
	for _, s := range []page.SettingsData{
		{TimeoutS: 601}, {TimeoutS: 9_000_000_000}, {TimeoutS: -1},
		{MaxRows: 1_000_001}, {MaxRows: 1<<63 - 1}, {MaxRows: -1},
	} {
		if _, err := svc.Settings.Save(s); engine.ErrorCode(err) != engine.CodeUsage {
			t.Errorf("%+v: %v, want a usage error", s, err)
		}
	}
	if got, err := svc.Settings.Save(page.SettingsData{TimeoutS: 600, MaxRows: 1_000_000}); err != nil || got.TimeoutS != 600 || got.MaxRows != 1_000_000 {
		t.Errorf("at the ceilings: %v %+v", err, got)
	}
	os.WriteFile(filepath.Join(os.Getenv("QUERENT_DATA_DIR"), "settings.json"),
		[]byte(`{"model": "mine:7b", "timeout_s": 3600, "max_rows": 5000000, "theme": "dark"}`), 0o600)
	if got, _ := svc.Settings.Get(); got.Model != "mine:7b" || got.TimeoutS != 600 || got.MaxRows != 1_000_000 || got.Theme != "dark" {
		t.Errorf("an older settings file: %+v", got)
	}
}
