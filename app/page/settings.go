package page

import (
	"slices"
	"strings"
	"time"

	"querent/engine"
)

// Settings reads and saves the app's settings (settings.json in the data
// folder).
type Settings struct{ a *app }

// SettingsData are the user's choices.
type SettingsData struct {
	OllamaHost string `json:"ollama_host"` // "" → $OLLAMA_HOST or 127.0.0.1:11434
	// LLMURL, when set, is an OpenAI-compatible server's API root
	// (http://127.0.0.1:1234/v1) used instead of Ollama; "" uses Ollama,
	// or $OPENAI_BASE_URL when it is set and OllamaHost is not.
	LLMURL string `json:"llm_url"`
	// APIKey is that server's key ("" → $OPENAI_API_KEY). It is kept in
	// settings.json (readable by this user only) and never given back:
	// Get blanks it and says APIKeySet; Save keeps the saved key when
	// given none, unless ClearAPIKey.
	APIKey      string `json:"api_key,omitempty"`
	APIKeySet   bool   `json:"api_key_set"`
	ClearAPIKey bool   `json:"clear_api_key,omitempty"`
	Model       string `json:"model"`     // "" → the best SQL model installed
	MaxRows     int    `json:"max_rows"`  // rows shown per answer, at most engine.MaxRowsInMemory
	TimeoutS    int    `json:"timeout_s"` // seconds a query may run, at most engine.MaxTimeout
	Theme       string `json:"theme"`     // system, light or dark
	// SkipExplanation shows the rows without the model's explanation and
	// follow-up questions (one model request less per question).
	SkipExplanation bool `json:"skip_explanation"`
	// SkipVotes draws no other readings of a doubtful answer (up to four
	// model requests less per such question); the answer still says how
	// sure it is.
	SkipVotes bool `json:"skip_votes"`
	// RequireReadOnlyRole refuses to connect to PostgreSQL as a role that
	// may do more than read (a superuser, a role that may write to a
	// table), instead of connecting with a warning.
	RequireReadOnlyRole bool `json:"require_readonly_role"`
	// AllowSuperuser lets Querent connect to PostgreSQL as a superuser
	// (with a warning), which it refuses by default: such a role may read
	// and write the server's files and run programs on it.
	AllowSuperuser bool `json:"allow_superuser"`
	// Language is the page's language: "en", "fr" or "zh"; "" follows
	// the system's.
	Language string `json:"language"`
	// ThinkingModels are the thinking models (qwen3, deepseek-r1…) the
	// analyst lets think before they write the SQL; any other thinking
	// model is told not to (issue 24 §3).
	ThinkingModels []string `json:"thinking_models"`
}

func defaultSettings() SettingsData {
	return SettingsData{MaxRows: engine.DefaultMaxRows, TimeoutS: int(engine.DefaultTimeout / time.Second), Theme: "system", ThinkingModels: []string{}}
}

func (s SettingsData) timeout() time.Duration { return time.Duration(s.TimeoutS) * time.Second }

// valid fills defaults and checks the values.
func (s SettingsData) valid() (SettingsData, error) {
	d := defaultSettings()
	if s.MaxRows == 0 {
		s.MaxRows = d.MaxRows
	}
	if s.TimeoutS == 0 {
		s.TimeoutS = d.TimeoutS
	}
	if s.Theme == "" {
		s.Theme = d.Theme
	}
	s.OllamaHost = strings.TrimSpace(s.OllamaHost)
	s.LLMURL = strings.TrimSpace(s.LLMURL)
	s.APIKey = strings.TrimSpace(s.APIKey)
	s.Model = strings.TrimSpace(s.Model)
	var thinking []string
	for _, m := range s.ThinkingModels {
		if m = strings.TrimSpace(m); m != "" && !slices.Contains(thinking, m) {
			thinking = append(thinking, m)
		}
	}
	s.ThinkingModels = thinking
	if s.ThinkingModels == nil {
		s.ThinkingModels = []string{}
	}
	switch {
	case s.MaxRows < 1 || s.MaxRows > engine.MaxRowsInMemory:
		return s, engine.Errorf(engine.CodeUsage, "the row cap must be between 1 and %s", engine.GroupThousands(engine.MaxRowsInMemory)).WithHint("exports are not capped: use Export for every row")
	case s.TimeoutS < 1 || s.TimeoutS > int(engine.MaxTimeout/time.Second):
		return s, engine.Errorf(engine.CodeUsage, "the timeout must be between 1 second and %d minutes", int(engine.MaxTimeout/time.Minute)).WithHint(
			"a query that needs longer is better exported, or narrowed with WHERE")
	case s.Theme != "system" && s.Theme != "light" && s.Theme != "dark":
		return s, engine.Errorf(engine.CodeUsage, "the theme is system, light or dark")
	case s.Language != "" && s.Language != "en" && s.Language != "fr" && s.Language != "zh":
		return s, engine.Errorf(engine.CodeUsage, "the language is en, fr or zh (or empty for the system's)")
	}
	return s, nil
}

func (a *app) settings() SettingsData {
	var s SettingsData
	if err := a.readJSON("settings.json", &s); err != nil {
		return defaultSettings()
	}
	// A file saved under older, looser bounds (a timeout of an hour) is
	// lowered to the ceilings rather than thrown away with the user's
	// other choices.
	s.MaxRows = min(s.MaxRows, engine.MaxRowsInMemory)
	s.TimeoutS = min(s.TimeoutS, int(engine.MaxTimeout/time.Second))
	if v, err := s.valid(); err == nil {
		return v
	}
	return defaultSettings()
}

// Get returns the settings.
func (s *Settings) Get() (*SettingsData, error) {
	v := s.a.settings().shown()
	return &v, nil
}

// shown is the settings as the page gets them: without the API key.
func (s SettingsData) shown() SettingsData {
	s.APIKeySet, s.APIKey, s.ClearAPIKey = s.APIKey != "", "", false
	return s
}

// Save checks and saves the settings, and returns them as saved.
func (s *Settings) Save(data SettingsData) (*SettingsData, error) {
	v, err := data.valid()
	if err != nil {
		return nil, err
	}
	if v.APIKey == "" && !v.ClearAPIKey {
		v.APIKey = s.a.settings().APIKey
	}
	v.APIKeySet, v.ClearAPIKey = false, false
	if err := s.a.writeJSON("settings.json", v); err != nil {
		return nil, engine.Errorf(engine.CodeUsage, "cannot save the settings: %v", err).WithErr(err).WithHint("check that Querent's data folder can be written")
	}
	s.a.mu.Lock()
	s.a.asker = nil // a new model or host
	s.a.mu.Unlock()
	v = v.shown()
	return &v, nil
}

// Version returns Querent's version.
func (s *Settings) Version() (string, error) {
	if s.a.deps.Version == "" {
		return "dev", nil
	}
	return s.a.deps.Version, nil
}
