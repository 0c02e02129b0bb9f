package page

import (
	"context"
	"time"

	"querent/engine"
	"querent/engine/sensitive"
)

// Sensitive is the open database's columns marked sensitive, as the
// page's schema view shows and edits them: a marked column's values are
// shown to the analyst only, a model or an agent gets them masked. The
// marks live in the same file as the command line's (querent sensitive,
// sensitive.OpenDefault: Querent's data folder), so both faces share them.
type Sensitive struct{ a *app }

// SensitiveList is the open database's marks and the columns that look
// like personal data and are not marked yet (offered, never marked
// silently).
type SensitiveList struct {
	Marks  []sensitive.Mark   `json:"marks"`
	Likely []sensitive.Likely `json:"likely"`
}

func (s *Sensitive) use() (*sensitive.Store, engine.Database, error) {
	db, err := s.a.current()
	if err != nil {
		return nil, nil, err
	}
	st, err := sensitive.OpenDefault()
	if err != nil {
		return nil, nil, engine.Errorf(engine.CodeDatabase, "the sensitive columns' file cannot be opened: %v", err).WithErr(err).WithHint("check that Querent's data folder can be written")
	}
	return st, db, nil
}

// List returns the open database's marks and its likely columns.
func (s *Sensitive) List() (SensitiveList, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out := SensitiveList{Marks: []sensitive.Mark{}, Likely: []sensitive.Likely{}}
	st, db, err := s.use()
	if err != nil {
		return out, err
	}
	return s.list(ctx, st, db)
}

func (s *Sensitive) list(ctx context.Context, st *sensitive.Store, db engine.Database) (SensitiveList, error) {
	out := SensitiveList{Marks: []sensitive.Mark{}, Likely: []sensitive.Likely{}}
	marks, err := st.List(ctx, db)
	if err != nil {
		return out, err
	}
	out.Marks = marks
	sch, err := db.Schema(ctx)
	if err != nil {
		return out, err
	}
	set, err := st.Set(ctx, db)
	if err != nil {
		return out, err
	}
	out.Likely = sensitive.FindLikely(sch, set)
	return out, nil
}

// Add marks the column ("Table.Column") sensitive, a name that is no
// column refused with the closest names, and gives the open database its
// marks again: the next answers are marked and the model never gets the
// column's values (the asker rebuilds its value index when the marks
// change).
func (s *Sensitive) Add(name string) (SensitiveList, error) {
	return s.change(name, true)
}

// Remove unmarks the column: models and agents see its values again.
func (s *Sensitive) Remove(name string) (SensitiveList, error) {
	return s.change(name, false)
}

func (s *Sensitive) change(name string, add bool) (SensitiveList, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	empty := SensitiveList{Marks: []sensitive.Mark{}, Likely: []sensitive.Likely{}}
	st, db, err := s.use()
	if err != nil {
		return empty, err
	}
	if add {
		if _, err := st.Add(ctx, db, name); err != nil {
			return empty, err
		}
	} else {
		ok, err := st.Remove(ctx, db, name)
		if err != nil {
			return empty, err
		}
		if !ok {
			return empty, engine.Errorf(engine.CodeUsage, "%s is not marked sensitive", name).WithHint("the marked columns carry the lock in the schema view")
		}
	}
	if _, err := st.Apply(ctx, db); err != nil {
		return empty, err
	}
	return s.list(ctx, st, db)
}
