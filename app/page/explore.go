package page

import (
	"querent/engine/files"
	"querent/engine/profile"
)

// Explore is the start view's content: the open database's profile (its
// tables and views, their columns' figures, the joins) and the suggested
// questions with their answers already run under the guard.
type Explore struct {
	Database        string                 `json:"database"`
	Tables          []*profile.Table       `json:"tables"`
	Relationships   []profile.Relationship `json:"relationships"`
	Suggestions     []profile.Suggestion   `json:"suggestions"`
	Skipped         []string               `json:"skipped"`          // the tables the profile left out, with why
	SampleThreshold int64                  `json:"sample_threshold"` // tables past this many rows are sampled
	SampleRows      int                    `json:"sample_rows"`      // the rows a sample reads
}

// Explore profiles the open database and suggests questions in language
// ("en", "fr" or "zh"; another falls back to English), re-using the
// window's cache while the database's identity is the same. Cancel stops
// it (the kind "explore"); opening another database does too.
func (d *Datasets) Explore(language string) (*Explore, error) {
	db, err := d.a.current()
	if err != nil {
		return nil, err
	}
	if !validLanguage(language) {
		language = "en"
	}
	ctx, done := d.a.begin("explore")
	defer done()
	c := d.a.profiles()
	p, err := c.Profile(ctx, db, profile.Options{})
	if err != nil {
		return nil, err
	}
	s, err := c.Suggest(ctx, db, p, language)
	if err != nil {
		return nil, err
	}
	out := &Explore{Database: p.Database, Tables: p.Tables, Relationships: p.Relationships, Suggestions: s,
		Skipped: p.Skipped, SampleThreshold: p.SampleThreshold, SampleRows: p.SampleRows}
	if out.Tables == nil {
		out.Tables = []*profile.Table{}
	}
	if dir, err := files.DataDir(); err == nil {
		// The analyst's choices (querent relationships): a dropped join is
		// not listed.
		out.Relationships = (&profile.Joins{Dir: dir}).Apply(ctx, db, p.Relationships, false)
	}
	if out.Relationships == nil {
		out.Relationships = []profile.Relationship{}
	}
	if out.Suggestions == nil {
		out.Suggestions = []profile.Suggestion{}
	}
	if out.Skipped == nil {
		out.Skipped = []string{}
	}
	return out, nil
}

// CancelExplore stops a running Explore.
func (d *Datasets) CancelExplore() error {
	d.a.cancel("explore")
	return nil
}

func validLanguage(l string) bool {
	for _, x := range profile.Languages {
		if x == l {
			return true
		}
	}
	return false
}

// profiles is the window's profile cache, made on first use.
func (a *app) profiles() *profile.Cache {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.profileCache == nil {
		a.profileCache = profile.NewCache()
	}
	return a.profileCache
}
