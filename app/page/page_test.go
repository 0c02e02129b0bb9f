package page_test

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"querent/app/page"
	"querent/engine"
	"querent/engine/export"
	"querent/engine/imports"
	"querent/engine/ollama/ollamatest"
	"querent/internal/wiring"
)

// recorder is an Events that keeps what it is told.
type recorder struct {
	mu     sync.Mutex
	events map[string]int
	title  string
}

func (r *recorder) Emit(name string, _ any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events[name]++
}
func (r *recorder) SetTitle(t string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.title = t
}

func newServices(t *testing.T) (*page.Services, *recorder) {
	t.Setenv("QUERENT_DATA_DIR", t.TempDir())
	rec := &recorder{events: map[string]int{}}
	svc := page.New(wiring.PageDeps("test"), rec, nil)
	t.Cleanup(svc.Close)
	return svc, rec
}

func TestServicesOpenAndRun(t *testing.T) {
	svc, rec := newServices(t)
	if cur, _ := svc.Datasets.Current(); cur != nil {
		t.Fatal("a database is open at start")
	}
	if _, err := svc.Results.Run("SELECT 1"); engine.ErrorCode(err) != engine.CodeUsage {
		t.Errorf("run with nothing open: %v", err)
	}
	info, err := svc.Datasets.OpenDemo()
	if err != nil {
		t.Fatal(err)
	}
	if !info.Demo || !info.ReadOnly || info.Tables != 11 || !strings.Contains(info.Title, "read-only") || rec.title != info.Title || rec.events["dataset:changed"] != 1 {
		t.Errorf("info %+v, title %q, events %v", info, rec.title, rec.events)
	}
	s, err := svc.Datasets.Schema()
	if err != nil || len(s.Tables) != 11 {
		t.Fatalf("schema: %v", err)
	}
	prev, err := svc.Results.Preview("Artist")
	if err != nil || prev.RowCount != 275 || prev.Truncated || len(prev.Errors) != 0 {
		t.Fatalf("preview: %v %+v", err, prev.Errors)
	}
	ans, err := svc.Results.Run("DELETE FROM Track")
	if err != nil || len(ans.Errors) != 1 || ans.Errors[0].Type != engine.CodeRefused {
		t.Errorf("refused run: %v %+v", err, ans)
	}
	// A user's file: opened, remembered in the recent files.
	b, _ := os.ReadFile("../../engine/sqlite/demo/Chinook_Sqlite.sqlite")
	path := filepath.Join(t.TempDir(), "mine.sqlite")
	os.WriteFile(path, b, 0o644)
	info, err = svc.Datasets.Open(path)
	if err != nil || info.Name != "mine.sqlite" || info.Path != path || info.SizeBytes != int64(len(b)) {
		t.Fatalf("open: %v %+v", err, info)
	}
	recent, _ := svc.Datasets.Recent()
	if len(recent) != 1 || recent[0].Path != path || !recent[0].Exists {
		t.Errorf("recent %+v", recent)
	}
	if recent, err := svc.Datasets.ForgetRecent(path); err != nil || len(recent) != 0 {
		t.Errorf("forget: %v %+v", err, recent)
	}
	if _, err := svc.Datasets.Open(filepath.Join(t.TempDir(), "none.db")); engine.ErrorCode(err) != engine.CodeDatabase {
		t.Errorf("missing file: %v", err)
	}
	if _, err := svc.Datasets.ChooseFile(); err != page.ErrNoDialogs {
		t.Errorf("dialogs: %v", err)
	}
	hist, err := svc.History.List(page.HistoryQuery{All: true, Limit: 10})
	if err != nil || len(hist) != 1 || hist[0].Status != engine.CodeRefused || hist[0].ID == 0 {
		t.Errorf("history %v %+v", err, hist)
	}
}

func TestServicesSettings(t *testing.T) {
	svc, _ := newServices(t)
	s, _ := svc.Settings.Get()
	if s.MaxRows != 1000 || s.TimeoutS != 30 || s.Theme != "system" {
		t.Errorf("defaults %+v", s)
	}
	if _, err := svc.Settings.Save(page.SettingsData{MaxRows: -1}); engine.ErrorCode(err) != engine.CodeUsage {
		t.Errorf("bad settings: %v", err)
	}
	for _, lang := range []string{"de", "EN", "fr-FR"} {
		if _, err := svc.Settings.Save(page.SettingsData{Language: lang}); engine.ErrorCode(err) != engine.CodeUsage {
			t.Errorf("language %q: %v, want a usage error", lang, err)
		}
	}
	saved, err := svc.Settings.Save(page.SettingsData{MaxRows: 10, TimeoutS: 5, Theme: "dark", OllamaHost: " 127.0.0.1:1 ", Language: "zh"})
	if err != nil || saved.OllamaHost != "127.0.0.1:1" || saved.Language != "zh" {
		t.Fatalf("%v %+v", err, saved)
	}
	if got, _ := svc.Settings.Get(); got.Language != "zh" {
		t.Errorf("the language read back: %q, want zh", got.Language)
	}
	svc.Datasets.OpenDemo()
	ans, _ := svc.Results.Run("SELECT * FROM Track")
	if ans.RowCount != 10 || !ans.Truncated {
		t.Errorf("the row cap setting: %d rows, truncated %v", ans.RowCount, ans.Truncated)
	}
	st, _ := svc.Ask.Status()
	if st.Running || st.Code != engine.CodeLLMUnavailable || st.Fix == "" {
		t.Errorf("status with Ollama down: %+v", st)
	}
	ans, err = svc.Ask.Question("How many tracks?")
	if err != nil || len(ans.Errors) != 1 || ans.Errors[0].Type != engine.CodeLLMUnavailable {
		t.Errorf("question with Ollama down: %v %+v", err, ans)
	}
}

func TestServicesAskImportExport(t *testing.T) {
	svc, rec := newServices(t)
	fake := ollamatest.New(t, ollamatest.Answer("SELECT Name FROM Genre ORDER BY Name LIMIT 3", "Three genres.", "How many tracks per genre?"))
	if _, err := svc.Settings.Save(page.SettingsData{OllamaHost: fake.URL}); err != nil {
		t.Fatal(err)
	}
	svc.Datasets.OpenDemo()
	st, _ := svc.Ask.Status()
	if !st.Running || st.Model != "qwen2.5-coder:7b" || st.EmbedModel == "" || len(st.Models) != 1 {
		t.Errorf("status %+v", st)
	}
	ans, err := svc.Ask.Question("Three genres")
	if err != nil || ans.RowCount != 3 || ans.Results.Values[0][0] != "Alternative" || len(ans.FollowUpQuestions) != 1 {
		t.Fatalf("question: %v %+v", err, ans)
	}
	if rec.events["ask:progress"] == 0 {
		t.Error("no progress events")
	}
	// Import a CSV into a new database and open it.
	dir := t.TempDir()
	csv := filepath.Join(dir, "people.csv")
	os.WriteFile(csv, []byte("name,age\nAnn,31\nBob,42\n"), 0o644)
	target := filepath.Join(dir, "people.sqlite")
	rep, err := svc.Datasets.Import(page.ImportRequest{Request: imports.Request{Target: target, Inputs: []string{csv}}, Open: true})
	if err != nil || len(rep.Tables) != 1 || rep.Tables[0].Rows != 2 {
		t.Fatalf("import: %v %+v", err, rep)
	}
	if cur, _ := svc.Datasets.Current(); cur == nil || cur.Path != target {
		t.Errorf("the import's database is not open: %+v", cur)
	}
	// Export the whole result to a file.
	out := filepath.Join(dir, "people.xlsx")
	res, err := svc.Export.Run(export.Request{SQL: "SELECT * FROM people", Out: out})
	if err != nil || res.Rows != 2 || res.Format != "xlsx" {
		t.Fatalf("export: %v %+v", err, res)
	}
	if b, _ := os.ReadFile(out); len(b) < 4 || string(b[:2]) != "PK" {
		t.Error("not an xlsx file")
	}
	if _, err := svc.Export.Run(export.Request{SQL: "SELECT 1", Out: out}); engine.ErrorCode(err) != engine.CodeExport {
		t.Errorf("existing file without force: %v", err)
	}
	name, _ := svc.Export.DefaultName("csv", "")
	if !strings.HasSuffix(name, ".csv") || !strings.Contains(filepath.Base(name), "people") {
		t.Errorf("default name %q", name)
	}
}

// The page's preview: the plan, nothing written, progress events, the open
// database refused as a target in the plan's errors; then the import.
func TestServicesPreviewImport(t *testing.T) {
	svc, rec := newServices(t)
	dir := t.TempDir()
	csv := filepath.Join(dir, "people.csv")
	os.WriteFile(csv, []byte("name,age,born\nAnn,31,1/2/1994\nBob,42,unknown\n"), 0o644)
	target := filepath.Join(dir, "people.sqlite")
	req := page.ImportRequest{Request: imports.Request{Target: target, Inputs: []string{csv},
		Overrides: []imports.TableOverride{{Source: csv, Columns: []imports.ColumnOverride{{Column: "born", Type: "date", OnBad: "null"}}}}}}
	plan, err := svc.Datasets.PreviewImport(req)
	if err != nil {
		t.Fatal(err)
	}
	tb := plan.Tables[0]
	if tb.Name != "people" || tb.Action != "create" || tb.Columns[2].Type != imports.TypeDate || tb.Columns[2].BadValues != 1 ||
		len(tb.PreviewRows) != 2 || tb.PreviewRows[0][2] != "1994-01-02" || tb.PreviewRows[1][2] != nil || rec.events["import:progress"] == 0 {
		t.Errorf("plan %+v, events %v", tb, rec.events)
	}
	if _, err := os.Stat(target); !os.IsNotExist(err) {
		t.Errorf("the preview wrote %s", target)
	}
	if _, err := svc.Datasets.PreviewImport(page.ImportRequest{}); engine.ErrorCode(err) != engine.CodeUsage {
		t.Errorf("a preview of nothing: %v", err)
	}
	rep, err := svc.Datasets.Import(req)
	if err != nil || rep.Tables[0].BadValues != 1 {
		t.Fatalf("import: %v %+v", err, rep)
	}
	// The database open in the window is never a target: the plan says so.
	if _, err := svc.Datasets.Open(target); err != nil {
		t.Fatal(err)
	}
	plan, err = svc.Datasets.PreviewImport(req)
	if err != nil || len(plan.Errors) == 0 || !strings.Contains(plan.Errors[len(plan.Errors)-1].Message, "open in this window") {
		t.Errorf("preview into the open database: %v %+v", err, plan.Errors)
	}
	if err := svc.Datasets.ForgetPreview(); err != nil {
		t.Error(err)
	}
}
