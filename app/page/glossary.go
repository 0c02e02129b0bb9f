package page

import (
	"context"
	"time"

	"querent/engine"
	"querent/engine/glossary"
)

// Glossary is the analyst's glossary of the open database, as the page's
// Glossary panel shows and edits it: the business's words, what each
// means, and the SQL that says it, checked against the database when
// saved (engine/glossary).
type Glossary struct{ a *app }

// GlossaryInput is an entry as the panel saves it.
type GlossaryInput struct {
	Term     string   `json:"term"`
	Meaning  string   `json:"meaning"`
	Synonyms []string `json:"synonyms"`
	SQL      string   `json:"sql"`
}

// glossary opens the glossaries' store once (nil when it cannot be
// opened).
func (a *app) glossary(ctx context.Context) *glossary.Glossary {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.gloss == nil && a.deps.Glossary != nil {
		if st, closeG, err := a.deps.Glossary(ctx); err == nil {
			a.gloss, a.closeG = glossary.New(st), closeG
		}
	}
	return a.gloss
}

func (g *Glossary) use(ctx context.Context) (*glossary.Glossary, engine.Database, error) {
	db, err := g.a.current()
	if err != nil {
		return nil, nil, err
	}
	uc := g.a.glossary(ctx)
	if uc == nil {
		return nil, nil, engine.Errorf(engine.CodeDatabase, "the glossary cannot be opened").WithHint("check that Querent's data folder can be written")
	}
	return uc, db, nil
}

// List returns the open database's entries as they stand against its
// schema now (a stale one flagged with its problem, in the page's words).
func (g *Glossary) List() ([]glossary.Status, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	uc, db, err := g.use(ctx)
	if err != nil {
		return []glossary.Status{}, err
	}
	out, err := uc.List(ctx, db)
	if err != nil {
		return []glossary.Status{}, err
	}
	for i := range out {
		if p := out[i].Problem; p != nil {
			d := pageDoc(*p)
			out[i].Problem = &d
		}
	}
	return out, nil
}

// Add checks the entry's SQL against the open database and saves it,
// replacing the entry of the same term; SQL that does not compile is
// refused with the database's hint (the closest column names).
func (g *Glossary) Add(entry GlossaryInput) (*glossary.Entry, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	uc, db, err := g.use(ctx)
	if err != nil {
		return nil, err
	}
	e, err := uc.Add(ctx, db, glossary.Entry{Term: entry.Term, Meaning: entry.Meaning, Synonyms: entry.Synonyms, SQL: entry.SQL})
	if err != nil {
		return nil, err
	}
	return &e, nil
}

// Remove removes the entry of term.
func (g *Glossary) Remove(term string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	uc, db, err := g.use(ctx)
	if err != nil {
		return err
	}
	return uc.Remove(ctx, db, term)
}
