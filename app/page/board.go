package page

import (
	"context"
	"time"

	"querent/engine"
	"querent/engine/board"
)

// Board is the open database's board of pinned answers (issue 25 §4): kept
// in the data folder by the database's identity (engine/board), re-run
// with one click against the database as it is now.
type Board struct{ a *app }

// BoardView is a board as the page shows it.
type BoardView struct {
	// Database is the open database's name.
	Database string      `json:"database"`
	Pins     []board.Pin `json:"pins"`
}

// PinRequest pins an answer: its question ("" for direct SQL), its SQL and
// the chart type it shows.
type PinRequest struct {
	Question string `json:"question"`
	SQL      string `json:"sql"`
	Chart    string `json:"chart"`
	Note     string `json:"note"`
}

// edit loads the open database's board, lets change alter it and saves it
// when change succeeds and save is set.
func (b *Board) edit(ctx context.Context, save bool, change func(db engine.Database, bd *board.Board) error) (*BoardView, error) {
	db, err := b.a.current()
	if err != nil {
		return nil, err
	}
	if b.a.deps.DataDir == "" {
		return nil, engine.Errorf(engine.CodeInternal, "there is no data folder to keep the board in").WithHint("check that Querent's data folder can be written")
	}
	b.a.boardMu.Lock()
	defer b.a.boardMu.Unlock()
	st := board.NewStore(b.a.deps.DataDir)
	bd, err := st.Load(engine.IdentityOf(ctx, db), db.Name())
	if err != nil {
		return nil, err
	}
	if change != nil {
		if err := change(db, bd); err != nil {
			return nil, err
		}
	}
	if save {
		if err := st.Save(bd); err != nil {
			return nil, err
		}
	}
	return &BoardView{Database: db.Name(), Pins: bd.Pins}, nil
}

// fresh is the database as it is now: a SQLite file is opened again (the
// window's connection reads it as immutable, and may keep pages read
// before another program changed it); done closes what fresh opened.
func (b *Board) fresh(ctx context.Context, db engine.Database) (engine.Database, func(), error) {
	f, ok := db.(engine.Filer)
	if !ok || db.Dialect() != "sqlite" || f.Path() == "" || b.a.deps.Open == nil {
		return db, func() {}, nil
	}
	now, err := b.a.deps.Open(ctx, f.Path(), b.a.openOptions())
	if err != nil {
		return nil, nil, err
	}
	return now, func() { now.Close() }, nil
}

// withFresh runs use on the database as it is now (fresh).
func (b *Board) withFresh(ctx context.Context, db engine.Database, use func(engine.Database) error) error {
	now, done, err := b.fresh(ctx, db)
	if err != nil {
		return err
	}
	defer done()
	return use(now)
}

func (b *Board) runOptions() engine.RunOptions {
	return engine.RunOptions{Timeout: b.a.settings().timeout()}
}

// List returns the open database's board, as last saved.
func (b *Board) List() (*BoardView, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return b.edit(ctx, false, nil)
}

// Pin pins an answer to the open database's board: its SQL runs again
// under the guard and the result it keeps is that run's (the same SQL
// pinned again replaces its card).
func (b *Board) Pin(req PinRequest) (*board.Pin, error) {
	ctx, done := b.a.begin("board-pin")
	defer done()
	var pin board.Pin
	_, err := b.edit(ctx, true, func(db engine.Database, bd *board.Board) error {
		return b.withFresh(ctx, db, func(now engine.Database) error {
			var err error
			pin, err = bd.Add(ctx, now, board.Pin{Question: req.Question, SQL: req.SQL, Chart: req.Chart, Note: req.Note}, b.runOptions())
			return err
		})
	})
	if err != nil {
		return nil, err
	}
	return &pin, nil
}

// Unpin takes the card id off the board.
func (b *Board) Unpin(id string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := b.edit(ctx, true, func(_ engine.Database, bd *board.Board) error { return bd.Remove(id) })
	return err
}

// SetNote saves the analyst's note on the card id ("" removes it).
func (b *Board) SetNote(id, note string) (*board.Pin, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var pin board.Pin
	_, err := b.edit(ctx, true, func(_ engine.Database, bd *board.Board) error {
		var err error
		pin, err = bd.SetNote(id, note)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &pin, nil
}

// RerunAll runs every card's SQL again under the guard against the open
// database as it is now; each card says what changed since it was pinned
// (Cancel stops it, and the board stays as it was). A pin or a card's
// answer meanwhile does not stop it: each kind of work is its own job.
func (b *Board) RerunAll() (*BoardView, error) {
	ctx, done := b.a.begin("board")
	defer done()
	return b.edit(ctx, true, func(db engine.Database, bd *board.Board) error {
		return b.withFresh(ctx, db, func(now engine.Database) error { return bd.RerunAll(ctx, now, b.runOptions()) })
	})
}

// Answer runs the card id's SQL on the open database as an answer (its
// rows, statistics and chart), for comparing it with another; it is not
// recorded in the history.
func (b *Board) Answer(id string) (*engine.Answer, error) {
	ctx, done := b.a.begin("board-answer")
	defer done()
	v, err := b.edit(ctx, false, nil)
	if err != nil {
		return nil, err
	}
	db, err := b.a.current()
	if err != nil {
		return nil, err
	}
	for _, p := range v.Pins {
		if p.ID == id {
			set := b.a.settings()
			var ans *engine.Answer
			if err := b.withFresh(ctx, db, func(now engine.Database) error {
				ans = runAnswer(ctx, now, p.SQL, set.MaxRows, set.timeout(), nil)
				return nil
			}); err != nil {
				return nil, err
			}
			if p.Question != "" {
				q := p.Question
				ans.Question = &q
			}
			return pageAnswer(ans), nil
		}
	}
	return nil, engine.Errorf(engine.CodeUsage, "no card %q on this database's board", id).WithHint("reload the board: the card may have been unpinned")
}

// Cancel stops a pin, a re-run or a card's answer under way.
func (b *Board) Cancel() error {
	for _, kind := range []string{"board", "board-pin", "board-answer"} {
		b.a.cancel(kind)
	}
	return nil
}
