package profile

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"querent/engine"
	"querent/engine/files"
)

// Joins keeps a database's relationships in Querent's data folder, never
// in the database: the ones the profile reads (declared and inferred),
// cached per database identity (its sha256, or quick identity) so that a
// command does not profile the file again, and the analyst's choices
// (confirmed, dropped), kept per identity too. A changed file has another
// identity: its joins are read again and the choices start anew. Safe for
// concurrent use within a process; the files are written atomically.
type Joins struct {
	// Dir is the data folder.
	Dir string
	// Budget bounds the profile that reads the joins (default 5 s); its
	// queries run under the database's own limits (the query worker's
	// timeout and memory ceiling).
	Budget time.Duration

	mu sync.Mutex
}

// The files of Joins in the data folder.
const (
	joinsCacheFile   = "relationships-cache.json"
	joinsChoicesFile = "relationships.json"
)

// maxJoinEntries bounds the databases each file remembers.
const maxJoinEntries = 200

type joinsEntry struct {
	Database      string         `json:"database"`
	Relationships []Relationship `json:"relationships"`
	Time          time.Time      `json:"time"`
}

type choiceEntry struct {
	Database  string    `json:"database"`
	Confirmed []string  `json:"confirmed"` // "from→to"
	Dropped   []string  `json:"dropped"`
	Time      time.Time `json:"time"`
}

func pairKey(from, to string) string { return strings.ToLower(from) + "→" + strings.ToLower(to) }

// dbIdentity is db's key in the files: its sha256 or quick identity, else
// its name.
func dbIdentity(ctx context.Context, db engine.Database) string {
	if f, ok := db.(engine.Fingerprinter); ok {
		if id, err := f.SHA256(ctx); err == nil && id != "" {
			return id
		}
	}
	return "name:" + db.Name()
}

func readJSON[T any](path string) map[string]T {
	m := map[string]T{}
	if b, err := os.ReadFile(path); err == nil {
		_ = json.Unmarshal(b, &m)
	}
	return m
}

func writeJSON[T any](path string, m map[string]T, when func(T) time.Time) error {
	if len(m) > maxJoinEntries {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, func(a, b string) int { return when(m[a]).Compare(when(m[b])) })
		for _, k := range keys[:len(m)-maxJoinEntries] {
			delete(m, k)
		}
	}
	b, err := json.MarshalIndent(m, "", " ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return files.WriteFileAtomic(path, b, 0o600)
}

// Apply is rels (a profile's, just read) with the analyst's choices of db:
// each marked Confirmed or Dropped, a dropped one left out unless all.
func (j *Joins) Apply(ctx context.Context, db engine.Database, rels []Relationship, all bool) []Relationship {
	id := dbIdentity(ctx, db)
	j.mu.Lock()
	ch := readJSON[choiceEntry](filepath.Join(j.Dir, joinsChoicesFile))[id]
	j.mu.Unlock()
	out := []Relationship{}
	for _, r := range rels {
		k := pairKey(r.From, r.To)
		r.Confirmed = slices.Contains(ch.Confirmed, k)
		r.Dropped = slices.Contains(ch.Dropped, k)
		if r.Dropped && !all {
			continue
		}
		out = append(out, r)
	}
	return out
}

// Relationships are db's joins: declared foreign keys (Inferred false) and
// joins read from the values (Inferred true), each marked Confirmed when
// the analyst confirmed it. A dropped one is left out, unless all, where
// it is listed marked Dropped.
func (j *Joins) Relationships(ctx context.Context, db engine.Database, all bool) ([]Relationship, error) {
	id := dbIdentity(ctx, db)
	rels, err := j.read(ctx, db, id)
	if err != nil {
		return nil, err
	}
	return j.Apply(ctx, db, rels, all), nil
}

// read is db's relationships from the cache, else from a profile.
func (j *Joins) read(ctx context.Context, db engine.Database, id string) ([]Relationship, error) {
	path := filepath.Join(j.Dir, joinsCacheFile)
	j.mu.Lock()
	e, ok := readJSON[joinsEntry](path)[id]
	j.mu.Unlock()
	if ok {
		return e.Relationships, nil
	}
	budget := j.Budget
	if budget <= 0 {
		budget = 5 * time.Second
	}
	p, err := Profile(ctx, db, Options{Budget: budget})
	if err != nil {
		return nil, err
	}
	rels := p.Relationships
	// A database without a file's identity (a server's) may change under
	// the same name: its joins are read each time. A profile that skipped
	// tables (out of time) is kept too, so that every command does not pay
	// its budget again: the joins of the skipped tables are not read.
	if !strings.HasPrefix(id, "name:") {
		j.mu.Lock()
		m := readJSON[joinsEntry](path)
		m[id] = joinsEntry{Database: db.Name(), Relationships: rels, Time: time.Now().UTC()}
		_ = writeJSON(path, m, func(e joinsEntry) time.Time { return e.Time }) // a cache: failing only means profiling again
		j.mu.Unlock()
	}
	return rels, nil
}

// Choose confirms (drop false) or drops the relationship from → to of db
// ("Table.column" each, as Relationships lists them). The relationship
// must be one of db's; a choice replaces the other.
func (j *Joins) Choose(ctx context.Context, db engine.Database, from, to string, drop bool) (Relationship, error) {
	id := dbIdentity(ctx, db)
	rels, err := j.read(ctx, db, id)
	if err != nil {
		return Relationship{}, err
	}
	i := slices.IndexFunc(rels, func(r Relationship) bool {
		return strings.EqualFold(r.From, from) && strings.EqualFold(r.To, to)
	})
	if i < 0 {
		names := make([]string, len(rels))
		for k, r := range rels {
			names[k] = r.From + " " + r.To
		}
		hint := "list them with: querent relationships list --all --db " + db.Name()
		if len(names) > 0 {
			hint = "name one of: " + strings.Join(names, "; ")
		}
		return Relationship{}, engine.Errorf(engine.CodeUsage, "%s has no relationship %s → %s", db.Name(), from, to).WithHint("%s", hint)
	}
	k := pairKey(rels[i].From, rels[i].To)
	path := filepath.Join(j.Dir, joinsChoicesFile)
	j.mu.Lock()
	defer j.mu.Unlock()
	m := readJSON[choiceEntry](path)
	ch := m[id]
	ch.Database, ch.Time = db.Name(), time.Now().UTC()
	ch.Confirmed = slices.DeleteFunc(ch.Confirmed, func(s string) bool { return s == k })
	ch.Dropped = slices.DeleteFunc(ch.Dropped, func(s string) bool { return s == k })
	if drop {
		ch.Dropped = append(ch.Dropped, k)
	} else {
		ch.Confirmed = append(ch.Confirmed, k)
	}
	m[id] = ch
	if err := writeJSON(path, m, func(e choiceEntry) time.Time { return e.Time }); err != nil {
		return Relationship{}, engine.Errorf(engine.CodeDatabase, "cannot save the choice in %s: %v", path, err).WithErr(err).
			WithHint("check that Querent's data folder can be written, or set QUERENT_DATA_DIR")
	}
	r := rels[i]
	r.Confirmed, r.Dropped = !drop, drop
	return r, nil
}

// Hints are db's relationships the model is given as join hints, by
// table: the inferred ones that were not dropped, as foreign keys marked
// Inferred (the declared ones are in the schema already).
func (j *Joins) Hints(ctx context.Context, db engine.Database) map[string][]engine.ForeignKey {
	rels, err := j.Relationships(ctx, db, false)
	if err != nil {
		return nil
	}
	out := map[string][]engine.ForeignKey{}
	for _, r := range rels {
		if !r.Inferred {
			continue
		}
		ft, fc, tt, tc := r.ends[0], r.ends[1], r.ends[2], r.ends[3]
		if ft == "" { // read back from the cache: the ends are not kept
			ft, fc = splitDotted(r.From)
			tt, tc = splitDotted(r.To)
		}
		out[ft] = append(out[ft], engine.ForeignKey{Column: fc, References: tt + "(" + tc + ")", Inferred: true})
	}
	return out
}

// splitDotted splits "Table.column" at its last dot.
func splitDotted(s string) (string, string) {
	i := strings.LastIndexByte(s, '.')
	if i < 0 {
		return s, ""
	}
	return s[:i], s[i+1:]
}
