package page_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"querent/app/page"
	"querent/engine"
	"querent/engine/eval"
	"querent/engine/eval/evaltest"
	"querent/engine/ollama/ollamatest"
)

type evalEvents struct {
	mu     sync.Mutex
	scored int
	last   page.EvalProgress
}

func (r *evalEvents) Emit(name string, data any) {
	if name != "eval:progress" {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	p := data.(page.EvalProgress)
	if p.Scored {
		r.scored++
	}
	r.last = p
}

func (r *evalEvents) SetTitle(string) {}

func TestEvaluateModelsOnTheBuiltInSet(t *testing.T) {
	svc, _ := newServices(t)
	ev := &evalEvents{}
	svc.SetEvents(ev)
	gold, err := eval.Builtin("chinook")
	if err != nil {
		t.Fatal(err)
	}
	fake := ollamatest.New(t)
	fake.SetModels("qwen2.5-coder:7b", "llama3.1:8b", "nomic-embed-text:latest")
	fake.Respond(evaltest.GoldResponder(t, gold, "qwen2.5-coder:7b"))
	if _, err := svc.Settings.Save(page.SettingsData{OllamaHost: fake.URL}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Evaluate.Run(page.EvalRequest{Gold: "chinook", Models: []string{"qwen2.5-coder:7b"}}); engine.ErrorCode(err) != engine.CodeUsage {
		t.Errorf("nothing open: %v", err)
	}
	if _, err := svc.Datasets.OpenDemo(); err != nil {
		t.Fatal(err)
	}
	sets, err := svc.Evaluate.GoldSets()
	if err != nil || len(sets) == 0 || sets[0].Name != "chinook" || !sets[0].Fits || sets[0].Items != len(gold.Items) || sets[0].Unanswerable < 8 {
		t.Fatalf("gold sets %v %+v", err, sets)
	}
	if _, err := svc.Evaluate.Run(page.EvalRequest{Gold: "chinook"}); engine.ErrorCode(err) != engine.CodeUsage {
		t.Errorf("no model: %v", err)
	}
	if _, err := svc.Evaluate.Run(page.EvalRequest{Gold: "chinook", Models: []string{"gpt-9"}}); engine.ErrorCode(err) != engine.CodeModelMissing {
		t.Errorf("a model that is not installed: %v", err)
	}

	res, err := svc.Evaluate.Run(page.EvalRequest{Gold: "chinook", Models: []string{"qwen2.5-coder:7b", "llama3.1:8b"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Models) != 2 || len(res.Items) != len(gold.Items) || len(res.Errors) != 0 {
		t.Fatalf("%d models, %d items, errors %+v", len(res.Models), len(res.Items), res.Errors)
	}
	good, bad := res.Models[0], res.Models[1]
	if *good.Model != "qwen2.5-coder:7b" || good.ExecutionAccuracy != 1 || good.Abstention == nil || *good.Abstention != 1 || good.FalseRefusals != 0 {
		t.Errorf("the right model: accuracy %v, abstention %v, false refusals %d", good.ExecutionAccuracy, good.Abstention, good.FalseRefusals)
	}
	if bad.ExecutionAccuracy > 0.1 || bad.Matches != 0 {
		t.Errorf("the wrong model: accuracy %v, %d matches", bad.ExecutionAccuracy, bad.Matches)
	}
	if ev.scored != 2*len(gold.Items) || ev.last.Total != 2*len(gold.Items) || ev.last.Done != ev.last.Total {
		t.Errorf("progress: %d scored, last %+v", ev.scored, ev.last)
	}
	for _, f := range []string{"report.md", "report.json", "records.jsonl"} {
		if _, err := os.Stat(filepath.Join(res.ReportDir, f)); err != nil {
			t.Errorf("the report: %v", err)
		}
	}
	if !strings.HasPrefix(res.ReportDir, os.Getenv("QUERENT_DATA_DIR")) {
		t.Errorf("the report is outside the data folder: %s", res.ReportDir)
	}
	// The page gets JSON it can read.
	b, _ := json.Marshal(res)
	for _, want := range []string{`"execution_accuracy":1`, `"by_difficulty"`, `"question":"`, `"report_dir"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("JSON lacks %s", want)
		}
	}
}

func TestEvaluateGoldFilesAndDrafts(t *testing.T) {
	svc, _ := newServices(t)
	fake := ollamatest.New(t, ollamatest.Reply{Content: `{"items": [
		{"question": "How many artists are there?", "difficulty": "easy", "sql": "SELECT count(*) FROM Artist"},
		{"question": "Which genre has the most tracks?", "difficulty": "medium", "sql": "SELECT g.Name FROM Genre g JOIN Track t USING (GenreId) GROUP BY g.GenreId ORDER BY count(*) DESC LIMIT 1"},
		{"question": "List the albums of Queen.", "difficulty": "medium", "sql": "SELECT Title FROM Album WHERE ArtistId = (SELECT ArtistId FROM Artist WHERE Name = 'Queen')"},
		{"question": "Broken", "difficulty": "hard", "sql": "SELECT nope FROM nowhere"}]}`})
	if _, err := svc.Settings.Save(page.SettingsData{OllamaHost: fake.URL}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.toml")
	os.WriteFile(bad, []byte("[[item]]\nid = \"x\"\nquestion = \"?\"\ndifficulty = \"easy\"\nsqll = \"SELECT 1\"\n"), 0o644)
	if _, err := svc.Evaluate.LoadGold(bad); engine.ErrorCode(err) != engine.CodeUsage || !strings.Contains(err.Error(), "sqll") {
		t.Errorf("a gold file with a mistake: %v", err)
	}
	if _, err := svc.Evaluate.Draft(page.DraftRequest{Out: filepath.Join(dir, "d.toml")}); engine.ErrorCode(err) != engine.CodeUsage {
		t.Errorf("nothing open: %v", err)
	}
	if _, err := svc.Datasets.OpenDemo(); err != nil {
		t.Fatal(err)
	}
	if name, _ := svc.Evaluate.DefaultDraftName(); filepath.Base(name) != "chinook-gold.toml" {
		t.Errorf("default name %s", name)
	}
	if _, err := svc.Evaluate.ChooseGoldFile(); err != page.ErrNoDialogs {
		t.Errorf("dialogs: %v", err)
	}
	out := filepath.Join(dir, "drafted.toml")
	res, err := svc.Evaluate.Draft(page.DraftRequest{Out: out, N: 3})
	if err != nil {
		t.Fatal(err)
	}
	if res.Items != 3 || res.Gold == nil || !res.Gold.Fits || res.Gold.Items != 3 || res.Gold.Name != out {
		t.Errorf("draft %+v gold %+v", res, res.Gold)
	}
	if _, err := svc.Evaluate.Draft(page.DraftRequest{Out: out, N: 3}); engine.ErrorCode(err) != engine.CodeExport {
		t.Errorf("an existing file: %v", err)
	}
	info, err := svc.Evaluate.LoadGold(out)
	if err != nil || info.Builtin || info.Answerable != 3 {
		t.Errorf("the drafted file: %v %+v", err, info)
	}
}

// While an evaluation runs, another database cannot be opened (it would be
// closed under the run), and Cancel stops the run with what was done.
func TestEvaluateCancelAndOpenGuard(t *testing.T) {
	svc, _ := newServices(t)
	ev := &evalEvents{}
	svc.SetEvents(ev)
	fake := ollamatest.New(t)
	fake.Respond(func(ollamatest.Request) ollamatest.Reply {
		return ollamatest.Reply{Delay: time.Minute} // a model that never answers in time
	})
	if _, err := svc.Settings.Save(page.SettingsData{OllamaHost: fake.URL}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Datasets.OpenDemo(); err != nil {
		t.Fatal(err)
	}
	type result struct {
		res *page.EvalResult
		err error
	}
	run := func() chan result {
		ch := make(chan result, 1)
		go func() {
			res, err := svc.Evaluate.Run(page.EvalRequest{Gold: "chinook", Models: []string{"qwen2.5-coder:7b"}})
			ch <- result{res, err}
		}()
		return ch
	}
	waitAsking := func() {
		for deadline := time.Now().Add(30 * time.Second); len(fake.Requests()) == 0; {
			if time.Now().After(deadline) {
				t.Fatal("the run never asked the model")
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	first := run()
	waitAsking()
	if _, err := svc.Datasets.OpenDemo(); engine.ErrorCode(err) != engine.CodeUsage || !strings.Contains(err.Error(), "evaluation") {
		t.Errorf("opening during a run: %v", err)
	}
	// A second run replaces the first; the first's end must not free the
	// second's slot: Cancel still reaches the second.
	n := len(fake.Requests())
	second := run()
	r1 := <-first
	if r1.err != nil || len(r1.res.Errors) == 0 || r1.res.Errors[0].Type != engine.CodeCancelled {
		t.Errorf("the replaced run: %v %+v", r1.err, r1.res)
	}
	for deadline := time.Now().Add(30 * time.Second); len(fake.Requests()) == n; {
		if time.Now().After(deadline) {
			t.Fatal("the second run never asked the model")
		}
		time.Sleep(10 * time.Millisecond)
	}
	svc.Evaluate.Cancel()
	select {
	case r2 := <-second:
		if r2.err != nil || len(r2.res.Errors) == 0 || r2.res.Errors[0].Type != engine.CodeCancelled || r2.res.Models[0].Outcomes["missing"] == 0 {
			t.Errorf("the cancelled run: %v %+v", r2.err, r2.res)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Cancel did not stop the second run")
	}
	if _, err := svc.Datasets.OpenDemo(); err != nil {
		t.Errorf("opening after the run: %v", err)
	}
}
