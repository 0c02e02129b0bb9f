package page_test

import (
	"slices"
	"testing"

	"querent/app/page"
	"querent/engine"
	"querent/engine/ollama/ollamatest"
)

// The status describes each model (window, capabilities), and the
// thinking setting lets the chosen thinking model think; without it the
// model is told not to.
func TestServicesThinkingModel(t *testing.T) {
	svc, rec := newServices(t)
	rep := ollamatest.Answer("SELECT count(*) AS n FROM Track", "Counted.")
	rep.Thinking = "Track has a row per track."
	fake := ollamatest.New(t, rep, rep)
	fake.SetModels("qwen3:8b")
	fake.SetSpec("qwen3:8b", ollamatest.Spec{ContextLength: 40960, Capabilities: []string{"completion", "thinking"}})
	if _, err := svc.Settings.Save(page.SettingsData{OllamaHost: fake.URL, SkipVotes: true, SkipExplanation: true}); err != nil {
		t.Fatal(err)
	}
	svc.Datasets.OpenDemo()
	st, _ := svc.Ask.Status()
	if len(st.Models) != 1 || st.Models[0].ContextLength != 40960 || !st.Models[0].Has(engine.CapThinking) {
		t.Fatalf("status %+v", st)
	}
	if ans, err := svc.Ask.Question("How many tracks?"); err != nil || ans.RowCount != 1 {
		t.Fatalf("question: %v %+v", err, ans)
	}
	if th := fake.Requests()[0].Think; th == nil || *th {
		t.Errorf("think %v without the setting, want false", th)
	}
	saved, err := svc.Settings.Save(page.SettingsData{OllamaHost: fake.URL, SkipVotes: true, SkipExplanation: true, ThinkingModels: []string{" qwen3:8b", "qwen3:8b"}})
	if err != nil || !slices.Equal(saved.ThinkingModels, []string{"qwen3:8b"}) {
		t.Fatalf("%v %+v", err, saved)
	}
	before := rec.events["ask:progress"]
	ans, err := svc.Ask.Question("How many tracks?")
	if err != nil || ans.RowCount != 1 || ans.ModelStats.Rounds[0].ThinkingTokens == 0 {
		t.Fatalf("question: %v %+v", err, ans)
	}
	reqs := fake.Requests()
	if th := reqs[len(reqs)-1].Think; th == nil || !*th {
		t.Errorf("think %v with the setting, want true", th)
	}
	if rec.events["ask:progress"] <= before {
		t.Error("no progress events")
	}
}
