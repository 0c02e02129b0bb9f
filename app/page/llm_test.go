package page_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"querent/app/page"
	"querent/engine"
	"querent/engine/ollama/ollamatest"
	"querent/engine/openai/openaitest"
)

const pageKey = "sk-page-test-93c1d"

func TestServicesOverAnOpenAIServer(t *testing.T) {
	svc, _ := newServices(t)
	fake := openaitest.New(t, ollamatest.Answer("SELECT Name FROM Genre ORDER BY Name LIMIT 3", "Three genres."))
	fake.RequireKey(pageKey)
	fake.SetModels("qwen2.5-coder-7b-instruct", "nomic-embed-text", "llama-3.2-3b-instruct")
	saved, err := svc.Settings.Save(page.SettingsData{LLMURL: fake.URL, APIKey: pageKey})
	if err != nil {
		t.Fatal(err)
	}
	// The key is never given back to the page: it says only that one is set.
	got, _ := svc.Settings.Get()
	if saved.APIKey != "" || got.APIKey != "" || !got.APIKeySet || got.LLMURL != fake.URL {
		t.Errorf("saved %+v, got %+v", saved, got)
	}
	// Saving without a key keeps it; ClearAPIKey forgets it.
	if _, err := svc.Settings.Save(*got); err != nil {
		t.Fatal(err)
	}
	st, _ := svc.Ask.Status()
	if !st.Running || st.Kind != "openai" || st.Host != fake.URL || st.HostSource != "settings" || len(st.Models) != 2 ||
		st.Model != "qwen2.5-coder-7b-instruct" || st.EmbedModel != "nomic-embed-text" {
		t.Fatalf("status %+v", st)
	}
	svc.Datasets.OpenDemo()
	ans, err := svc.Ask.Question("Three genres")
	if err != nil || ans.RowCount != 3 || ans.Results.Values[0][0] != "Alternative" || ans.ModelStats == nil || ans.ModelStats.Rounds[0].PromptTokens == 0 {
		t.Fatalf("question: %v %+v", err, ans)
	}
	// Downloads are Ollama's.
	if err := svc.Ask.PullModel("sqlcoder:7b"); engine.ErrorCode(err) != engine.CodeModelMissing || !strings.Contains(err.Error(), "only into Ollama") {
		t.Errorf("pull: %v", err)
	}
	// Nothing in the data folder but settings.json holds the key.
	filepath.Walk(os.Getenv("QUERENT_DATA_DIR"), func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || filepath.Base(p) == "settings.json" {
			return nil
		}
		if b, _ := os.ReadFile(p); strings.Contains(string(b), pageKey) {
			t.Errorf("%s holds the API key", filepath.Base(p))
		}
		return nil
	})
	cleared := *got
	cleared.ClearAPIKey = true
	if _, err := svc.Settings.Save(cleared); err != nil {
		t.Fatal(err)
	}
	if got, _ := svc.Settings.Get(); got.APIKeySet {
		t.Error("the key was not cleared")
	}
	st, _ = svc.Ask.Status()
	if st.Running || st.Code != engine.CodeLLMUnavailable || !strings.Contains(st.Problem, "asks for an API key") {
		t.Errorf("status without the key %+v", st)
	}
}
