// Package board keeps the analyst's pinned answers (issue 25 §4): a board
// of cards per database, in Querent's data folder, each card's question,
// SQL, chart and note with the result it had when it was pinned. Re-running
// a card runs its SQL again under the guard against the database as it is
// now and says what changed since it was pinned (Diff).
//
// A board is found by the database's identity (engine.DatabaseIdentity):
// the identity of its tables and columns, which stays the same while the
// rows change (a board is re-run precisely because they do), else the
// file's name. Never by a path alone: a copy elsewhere shares the board.
package board

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"querent/engine"
	"querent/engine/ask"
	"querent/engine/files"
)

// KeepRows is how many of a result's first rows a card keeps (the rows
// the comparison reads); the row count is of the whole result.
const KeepRows = engine.DefaultMaxRows

// MaxPins bounds a board (a dashboard, not a history).
const MaxPins = 100

// MaxNote bounds a card's note, in bytes.
const MaxNote = 2000

// Snapshot is a result as a card keeps it.
type Snapshot struct {
	Columns []string `json:"columns"`
	// Rows are the result's first rows (at most KeepRows).
	Rows [][]engine.Value `json:"rows"`
	// RowCount is the number of rows of the whole result.
	RowCount int64 `json:"row_count"`
	// At is when the SQL ran.
	At time.Time `json:"at"`
}

// Complete reports whether Rows holds every row of the result.
func (s Snapshot) Complete() bool { return int64(len(s.Rows)) >= s.RowCount }

// Pin is one card of a board.
type Pin struct {
	ID       string `json:"id"`
	Question string `json:"question"`
	SQL      string `json:"sql"`
	// Chart is the chart type the card showed when it was pinned ("" or
	// "table": none).
	Chart string `json:"chart"`
	// Note is the analyst's own text on the card.
	Note     string    `json:"note"`
	PinnedAt time.Time `json:"pinned_at"`
	// Pinned is the result when the card was pinned.
	Pinned Snapshot `json:"pinned"`
	// Now is the result of the last re-run (nil: not re-run yet).
	Now *Snapshot `json:"now,omitempty"`
	// Change is what changed from Pinned to Now.
	Change *Change `json:"change,omitempty"`
	// Error is why the last re-run failed ("" when it ran).
	Error string `json:"error,omitempty"`
}

// Board is the pinned cards of one database, oldest first.
type Board struct {
	// Database is the database's name when the board was last saved.
	Database string `json:"database"`
	Pins     []Pin  `json:"pins"`
	key      string
}

// Store keeps the boards, one JSON file per database identity in a folder
// of the data folder.
type Store struct{ dir string }

// NewStore keeps the boards in dataDir's "boards" folder.
func NewStore(dataDir string) *Store { return &Store{dir: filepath.Join(dataDir, "boards")} }

// Key is the file name a database's board is kept under.
func Key(id engine.DatabaseIdentity, name string) string {
	basis := "schema:" + id.SchemaSHA256
	if id.SchemaSHA256 == "" {
		basis = "name:" + filepath.Base(name)
	}
	sum := sha256.Sum256([]byte(basis))
	return hex.EncodeToString(sum[:12])
}

// Load returns the board of the database id identifies (an empty one when
// none was saved).
func (s *Store) Load(id engine.DatabaseIdentity, name string) (*Board, error) {
	key := Key(id, name)
	b := &Board{Database: name, key: key, Pins: []Pin{}}
	data, err := os.ReadFile(filepath.Join(s.dir, key+".json"))
	if errors.Is(err, fs.ErrNotExist) {
		return b, nil
	}
	if err != nil {
		return nil, engine.Errorf(engine.CodeInternal, "cannot read the board: %v", err).WithErr(err).WithHint("check that Querent's data folder can be read")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(b); err != nil {
		return nil, engine.Errorf(engine.CodeInternal, "the board %s is not valid JSON: %v", key, err).WithErr(err).WithHint(
			"move the file out of Querent's data folder (boards/) to start an empty board")
	}
	if b.Pins == nil {
		b.Pins = []Pin{}
	}
	b.Database, b.key = name, key
	return b, nil
}

// Save writes the board atomically (temporary file, fsync, rename).
func (s *Store) Save(b *Board) error {
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return engine.Errorf(engine.CodeInternal, "cannot make the boards folder: %v", err).WithErr(err).WithHint("check that Querent's data folder can be written")
	}
	data, err := json.MarshalIndent(b, "", " ")
	if err != nil {
		return fmt.Errorf("encode the board: %w", err)
	}
	if err := files.WriteFileAtomic(filepath.Join(s.dir, b.key+".json"), data, 0o600); err != nil {
		return engine.Errorf(engine.CodeInternal, "cannot save the board: %v", err).WithErr(err).WithHint("check that Querent's data folder can be written")
	}
	return nil
}

// Find returns the index of the card id (-1: none).
func (b *Board) Find(id string) int {
	for i, p := range b.Pins {
		if p.ID == id {
			return i
		}
	}
	return -1
}

func notPinned(id string) error {
	return engine.Errorf(engine.CodeUsage, "no card %q on this database's board", id).WithHint("reload the board: the card may have been unpinned")
}

// Add pins a card: its SQL run now under the guard (opts bound it) is the
// result it keeps. The same SQL pinned twice is one card (its question,
// chart and note updated).
func (b *Board) Add(ctx context.Context, db engine.Database, p Pin, opts engine.RunOptions) (Pin, error) {
	p.SQL = strings.TrimSpace(p.SQL)
	if p.SQL == "" {
		return p, engine.Errorf(engine.CodeUsage, "no SQL to pin").WithHint("pin an answer that has rows")
	}
	if len(p.Note) > MaxNote {
		return p, noteTooLong()
	}
	snap, err := Take(ctx, db, p.SQL, opts)
	if err != nil {
		return p, err
	}
	p.Pinned, p.PinnedAt, p.Now, p.Change, p.Error = snap, snap.At, nil, nil, ""
	for i := range b.Pins {
		if b.Pins[i].SQL == p.SQL {
			p.ID = b.Pins[i].ID
			if p.Note == "" {
				p.Note = b.Pins[i].Note
			}
			b.Pins[i] = p
			return p, nil
		}
	}
	if len(b.Pins) >= MaxPins {
		return p, engine.Errorf(engine.CodeUsage, "the board has %d cards already", MaxPins).WithHint("unpin a card before pinning another")
	}
	p.ID = newID()
	b.Pins = append(b.Pins, p)
	return p, nil
}

// Remove unpins the card id.
func (b *Board) Remove(id string) error {
	i := b.Find(id)
	if i < 0 {
		return notPinned(id)
	}
	b.Pins = append(b.Pins[:i], b.Pins[i+1:]...)
	return nil
}

// SetNote replaces the note of the card id.
func (b *Board) SetNote(id, note string) (Pin, error) {
	i := b.Find(id)
	if i < 0 {
		return Pin{}, notPinned(id)
	}
	note = strings.TrimSpace(note)
	if len(note) > MaxNote {
		return b.Pins[i], noteTooLong()
	}
	b.Pins[i].Note = note
	return b.Pins[i], nil
}

func noteTooLong() error {
	return engine.Errorf(engine.CodeUsage, "the note is longer than %d bytes", MaxNote).WithHint("shorten the note")
}

// RerunAll runs every card's SQL again under the guard against db as it is
// now and records what changed since it was pinned; a card whose SQL
// fails keeps its error (the others still run). It stops when ctx ends.
func (b *Board) RerunAll(ctx context.Context, db engine.Database, opts engine.RunOptions) error {
	for i := range b.Pins {
		if err := ctx.Err(); err != nil {
			return engine.AsError(err)
		}
		p := &b.Pins[i]
		snap, err := Take(ctx, db, p.SQL, opts)
		if err != nil {
			if ctx.Err() != nil {
				return engine.AsError(ctx.Err())
			}
			p.Error, p.Now, p.Change = engine.AsError(err).Message, nil, nil
			continue
		}
		ch := Diff(p.Pinned, snap)
		p.Now, p.Change, p.Error = &snap, &ch, ""
	}
	return nil
}

// Take runs sql under the guard (ask.RunSQL, the page's SQL path) and
// keeps its first KeepRows rows and the whole result's row count.
func Take(ctx context.Context, db engine.Database, sql string, opts engine.RunOptions) (Snapshot, error) {
	opts.MaxRows = KeepRows
	ans, err := ask.RunSQL(ctx, db, sql, opts)
	if err != nil {
		return Snapshot{}, err
	}
	s := Snapshot{Columns: ans.Results.Columns, Rows: ans.Results.Values, RowCount: int64(ans.RowCount), At: time.Now().UTC()}
	if s.Columns == nil {
		s.Columns = []string{}
	}
	if s.Rows == nil {
		s.Rows = [][]engine.Value{}
	}
	if ans.Truncated {
		n, err := ask.CountRows(ctx, db, sql, opts.Timeout)
		if err != nil {
			return Snapshot{}, err
		}
		s.RowCount = n
	}
	return s, nil
}

func newID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
