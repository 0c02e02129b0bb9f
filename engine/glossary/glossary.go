// Package glossary is the analyst's glossary of a database: the business's
// words ("active customer", "churn", "Q3"), what each means in plain words,
// and optionally the SQL that says it (an expression, a condition or a
// whole query). A model cannot know these words; the glossary tells it,
// for the questions that use them.
//
// The use case (Glossary) checks an entry's SQL when it is saved, against
// the database, by the guard (the Database port's Validate): SQL that does
// not compile is refused with the database's own hint (the closest column
// names). Each entry keeps a fingerprint of the tables its SQL reads; when
// those change, the SQL is checked again, and an entry whose SQL no longer
// compiles is stale: listed as such, never sent to the model.
//
// Entries live behind a small port (Store), per database, found by the
// database's identity (its sha256, engine.Fingerprinter) or its path;
// engine/sqlite keeps them in Querent's data folder, never in the user's
// database.
package glossary

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"

	"querent/engine"
	"querent/engine/text"
	"querent/engine/words"
)

// Limits of an entry, so that a glossary fits beside the schema in a
// model's prompt.
const (
	MaxTermChars    = 100
	MaxMeaningChars = 1000
	MaxSQLChars     = 4000
	MaxSynonyms     = 10
	// MaxUsed is the most entries one question's prompt carries.
	MaxUsed = 8
)

// The kinds of an entry's SQL.
const (
	KindQuery      = "query"      // a whole SELECT (or WITH … SELECT)
	KindCondition  = "condition"  // a WHERE condition: Total > 100
	KindExpression = "expression" // a value: UnitPrice * Quantity
)

// Entry is one word of the business and what it means.
type Entry struct {
	Term    string `json:"term"`
	Meaning string `json:"meaning"`
	// Synonyms are other words for the same thing; a question that uses
	// one of them uses the entry.
	Synonyms []string `json:"synonyms"`
	// SQL says the term in the database's dialect; "" when the meaning is
	// words only.
	SQL string `json:"sql"`
	// Kind is what SQL is: KindQuery, KindCondition or KindExpression; ""
	// without SQL.
	Kind string `json:"kind"`
	// Tables are the tables and views SQL reads, as the guard found them.
	Tables []string `json:"tables"`
	// Fingerprint is that of Tables' definitions (their columns and types)
	// when SQL was last found to compile; a different one now means the
	// SQL must be checked again.
	Fingerprint string    `json:"schema_fingerprint"`
	Updated     time.Time `json:"updated"`
}

// Words are the entry's term and synonyms.
func (e Entry) Words() []string { return append([]string{e.Term}, e.Synonyms...) }

// Use is the entry as an answer lists it.
func (e Entry) Use() engine.GlossaryUse {
	return engine.GlossaryUse{Term: e.Term, Meaning: e.Meaning, SQL: e.SQL}
}

// Status is an entry as it stands against the database now.
type Status struct {
	Entry
	// Stale is true when the SQL no longer compiles against the schema:
	// the entry is not sent to the model until it is fixed.
	Stale bool `json:"stale"`
	// Problem is why it is stale (null when it is not).
	Problem *engine.ErrorDoc `json:"problem"`
}

// Ref is a database as the store finds its entries: by its sha256 (or
// quick identity) or by its name (the file's path), so that a file moved
// or changed keeps its glossary.
type Ref struct {
	Database string
	SHA256   string
}

// RefOf is db's Ref.
func RefOf(ctx context.Context, db engine.Database) Ref {
	r := Ref{Database: db.Name()}
	if f, ok := db.(engine.Fingerprinter); ok {
		r.SHA256, _ = f.SHA256(ctx)
	}
	return r
}

// Store keeps the entries of each database (engine/sqlite's GlossaryStore,
// in Querent's data folder).
type Store interface {
	// Entries returns db's entries, by term.
	Entries(ctx context.Context, db Ref) ([]Entry, error)
	// Save adds e, or replaces the entry of the same Key.
	Save(ctx context.Context, db Ref, e Entry) error
	// Remove removes the entry whose Key is key's; false when none was.
	Remove(ctx context.Context, db Ref, key string) (bool, error)
}

// Key is how a term is told apart from the others: its words folded and
// stemmed ("Active Customers" and "active customer" are one term).
func Key(term string) string { return strings.Join(text.Words(term), " ") }

// Glossary is the use case: add, list, check and remove entries, and find
// those a question uses.
type Glossary struct {
	Store Store
	// Now is the clock (nil: time.Now).
	Now func() time.Time
}

// New is the glossary over store.
func New(store Store) *Glossary { return &Glossary{Store: store} }

func (g *Glossary) now() time.Time {
	if g.Now != nil {
		return g.Now().UTC()
	}
	return time.Now().UTC()
}

// Add checks e against db and saves it, replacing the entry of the same
// term. The SQL, when there is one, must compile against db (the guard's
// Validate): an unknown column is refused with the database's hint, which
// names the closest columns. It returns the entry as saved.
func (g *Glossary) Add(ctx context.Context, db engine.Database, e Entry) (Entry, error) {
	e, err := clean(e)
	if err != nil {
		return e, err
	}
	if e.SQL != "" {
		s, err := db.Schema(ctx)
		if err != nil {
			return e, err
		}
		c, err := checkSQL(ctx, db, s, e.Term, e.SQL, nil)
		if err != nil {
			return e, err
		}
		e.Kind, e.Tables, e.Fingerprint = c.kind, c.tables, Fingerprint(s, c.tables)
	}
	e.Updated = g.now()
	if err := g.Store.Save(ctx, RefOf(ctx, db), e); err != nil {
		return e, err
	}
	return e, nil
}

// clean trims e and checks its limits.
func clean(e Entry) (Entry, error) {
	e.Term = strings.Join(strings.Fields(e.Term), " ")
	e.Meaning = strings.TrimSpace(e.Meaning)
	e.SQL = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(e.SQL), ";"))
	e.Kind, e.Tables, e.Fingerprint = "", []string{}, ""
	var syn []string
	seen := map[string]bool{Key(e.Term): true}
	for _, s := range e.Synonyms {
		s = strings.Join(strings.Fields(s), " ")
		if k := Key(s); k != "" && !seen[k] {
			seen[k] = true
			syn = append(syn, s)
		}
	}
	e.Synonyms = syn
	if e.Synonyms == nil {
		e.Synonyms = []string{}
	}
	switch {
	case e.Term == "":
		return e, engine.Say(engine.CodeUsage, words.New("glossary.no_term")).SayHint(words.New("glossary.name_term", words.Glossary.With(words.Value("add"), words.Value("TERM"), words.Meaning.With("TEXT"))))
	case Key(e.Term) == "":
		return e, engine.Errorf(engine.CodeUsage, "the term %q has no word to find in a question (letters, or Chinese characters)", e.Term).WithHint(
			"name the term by a word of two letters or more, or a Chinese word")
	case utf8.RuneCountInString(e.Term) > MaxTermChars:
		return e, engine.Errorf(engine.CodeUsage, "the term is %d characters long; at most %d", utf8.RuneCountInString(e.Term), MaxTermChars).WithHint(
			"name the term in a few words, and say the rest in its meaning")
	case e.Meaning == "":
		return e, engine.Say(engine.CodeUsage, words.New("glossary.no_meaning", words.Quoted(e.Term))).SayHint(words.New("glossary.say_meaning", words.Meaning.With("TEXT")))
	case utf8.RuneCountInString(e.Meaning) > MaxMeaningChars:
		return e, engine.Errorf(engine.CodeUsage, "the meaning is %d characters long; at most %d", utf8.RuneCountInString(e.Meaning), MaxMeaningChars).WithHint(
			"say it in a few sentences: it goes into the model's prompt with every question that uses the term")
	case len(e.Synonyms) > MaxSynonyms:
		return e, engine.Errorf(engine.CodeUsage, "%d synonyms; at most %d", len(e.Synonyms), MaxSynonyms).WithHint(
			"keep the words people really use; another meaning is another entry")
	case utf8.RuneCountInString(e.SQL) > MaxSQLChars:
		return e, engine.Errorf(engine.CodeUsage, "the SQL is %d characters long; at most %d", utf8.RuneCountInString(e.SQL), MaxSQLChars).WithHint(
			"keep the SQL to the term itself (a condition or an expression); the model writes the rest of the query")
	}
	return e, nil
}

// Remove removes the entry of term; a term that has none is a usage error.
func (g *Glossary) Remove(ctx context.Context, db engine.Database, term string) error {
	ok, err := g.Store.Remove(ctx, RefOf(ctx, db), Key(term))
	if err != nil {
		return err
	}
	if !ok {
		return engine.Say(engine.CodeUsage, words.New("glossary.not_found", words.Quoted(strings.TrimSpace(term)))).SayHint(
			words.New("glossary.see_terms", words.Glossary.With(words.Value("list"), words.DB.With(db.Name()))))
	}
	return nil
}

// List returns db's entries as they stand against its schema now: an
// entry whose tables changed since it was checked is checked again, and is
// stale when its SQL no longer compiles. Nothing is saved.
func (g *Glossary) List(ctx context.Context, db engine.Database) ([]Status, error) {
	out, _, err := g.statuses(ctx, db)
	return out, err
}

// Check is List, and saves the new fingerprint of each entry whose tables
// changed but whose SQL still compiles, so that it is not checked again.
func (g *Glossary) Check(ctx context.Context, db engine.Database) ([]Status, error) {
	out, refreshed, err := g.statuses(ctx, db)
	if err != nil {
		return out, err
	}
	ref := RefOf(ctx, db)
	for _, e := range refreshed {
		if err := g.Store.Save(ctx, ref, e); err != nil {
			return out, err
		}
	}
	return out, nil
}

// statuses returns the entries' statuses, and the entries that compile
// with a new fingerprint.
func (g *Glossary) statuses(ctx context.Context, db engine.Database) ([]Status, []Entry, error) {
	entries, err := g.Store.Entries(ctx, RefOf(ctx, db))
	if err != nil {
		return nil, nil, err
	}
	out := make([]Status, 0, len(entries))
	if len(entries) == 0 {
		return out, nil, nil
	}
	s, err := db.Schema(ctx)
	if err != nil {
		return nil, nil, err
	}
	var refreshed []Entry
	for _, e := range entries {
		st, changed := recheck(ctx, db, s, e)
		out = append(out, st)
		if changed {
			refreshed = append(refreshed, st.Entry)
		}
	}
	return out, refreshed, nil
}

// recheck is e's status against the schema s: unchanged tables need no
// check; changed ones get the SQL compiled again. changed is true when the
// SQL still compiles over tables that changed (a new fingerprint).
func recheck(ctx context.Context, db engine.Database, s *engine.Schema, e Entry) (st Status, changed bool) {
	st = Status{Entry: e}
	if e.SQL == "" || Fingerprint(s, e.Tables) == e.Fingerprint {
		return st, false
	}
	c, err := checkSQL(ctx, db, s, e.Term, e.SQL, e.Tables)
	if err != nil {
		if ctx.Err() != nil {
			// Not the entry's fault: say nothing about it.
			return st, false
		}
		doc := engine.NewErrorDoc(err)
		st.Stale, st.Problem = true, &doc
		return st, false
	}
	st.Kind, st.Tables, st.Fingerprint = c.kind, c.tables, Fingerprint(s, c.tables)
	return st, true
}

// Used returns the entries that question uses (its term or a synonym, in
// any word form, case or accent; see Match), in the order the question
// names them, at most MaxUsed, stale entries left out.
func (g *Glossary) Used(ctx context.Context, db engine.Database, question string) ([]Entry, error) {
	entries, err := g.Store.Entries(ctx, RefOf(ctx, db))
	if err != nil || len(entries) == 0 {
		return nil, err
	}
	matched := Match(question, entries)
	if len(matched) == 0 {
		return nil, nil
	}
	s, err := db.Schema(ctx)
	if err != nil {
		return nil, err
	}
	var out []Entry
	for _, e := range matched {
		if st, _ := recheck(ctx, db, s, e); !st.Stale {
			out = append(out, st.Entry)
		}
		if len(out) == MaxUsed {
			break
		}
	}
	return out, nil
}
