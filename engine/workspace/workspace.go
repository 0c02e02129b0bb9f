// Package workspace opens a data file (CSV, XLSX, JSON, Parquet) as a
// database: the file is imported, by the same import as `querent import`,
// into a workspace database in Querent's data folder, keyed by the file's
// identity and content, and that workspace is opened instead. It is
// re-used while the file is unchanged and imported again when it changes;
// the workspace appears as a whole or not at all (a temporary file renamed
// into place), and the user's file is only read, never written beside.
package workspace

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"querent/engine"
	"querent/engine/files"
	"querent/engine/imports"
	"querent/engine/ingest"
)

// Folder is the data folder's sub-folder of the workspaces.
const Folder = "workspaces"

// sqliteHeader starts every SQLite database file.
const sqliteHeader = "SQLite format 3\x00"

// sqliteExts are the names of SQLite files: a file so named is opened as a
// database whatever it holds (its own error says what it is instead).
var sqliteExts = map[string]bool{".sqlite": true, ".sqlite3": true, ".db": true, ".db3": true, ".s3db": true, ".sl3": true}

// IsDataFile reports whether target names a data file to import rather
// than a database to open: a regular, non-empty file that does not start
// as a SQLite database and is not named as one. What it holds is judged by
// the import (CSV, XLSX, JSON or Parquet, by content), whose error refuses
// anything else.
func IsDataFile(target string) bool {
	if target == "" || sqliteExts[strings.ToLower(filepath.Ext(target))] {
		return false
	}
	fi, err := os.Stat(target)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() == 0 {
		return false
	}
	f, err := files.OpenNoBlock(target)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, len(sqliteHeader))
	n, _ := io.ReadFull(f, head)
	return !bytes.Equal(head[:n], []byte(sqliteHeader))
}

// Importer imports files into a new SQLite database (engine/importer).
type Importer interface {
	Import(ctx context.Context, req imports.Request) (*imports.Report, error)
}

// Store makes and finds the workspaces of data files.
type Store struct {
	// Dir is the workspaces' folder (the data folder's Folder).
	Dir string
	// Importer imports a file into a new workspace.
	Importer Importer
}

// Workspace is the database made from a data file.
type Workspace struct {
	// Source is the data file's absolute path.
	Source string `json:"source"`
	// Database is the workspace database's path.
	Database string `json:"database"`
	// SHA256 is the hex sha256 of the data file's content when imported.
	SHA256 string `json:"sha256"`
	// Dev, Ino, Size and ModNs are the data file's identity when imported.
	Dev   uint64 `json:"dev"`
	Ino   uint64 `json:"ino"`
	Size  int64  `json:"size"`
	ModNs int64  `json:"mod_ns"`
	// Imported is the time of the import.
	Imported time.Time `json:"imported"`
	// Tables are the tables the import made.
	Tables []string `json:"tables"`
	// Fresh says that this open imported the file (it was new or changed);
	// false when an earlier workspace was re-used.
	Fresh bool `json:"-"`
}

// key names the workspace of the file at abs: its stem, for people, and
// the sha256 of its absolute path, so that two files of one name in two
// folders have two workspaces.
func key(abs string) string {
	sum := sha256.Sum256([]byte(abs))
	stem := ingest.TableName(strings.TrimSuffix(filepath.Base(abs), filepath.Ext(abs)))
	if len(stem) > 40 {
		stem = stem[:40]
	}
	return stem + "-" + hex.EncodeToString(sum[:12])
}

// Open returns the workspace of the data file at path: the one made
// before when the file is the same (the same identity, or another identity
// and the same content), else a new import of it, which replaces the old
// workspace only once whole. progress, when set, follows the import.
func (s *Store) Open(ctx context.Context, path string, progress func(imports.Progress)) (*Workspace, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, engine.Errorf(engine.CodeDatabase, "%s: cannot resolve the path: %v", path, err).WithHint("check the path").WithErr(err)
	}
	f, _, err := files.OpenDatabase(abs)
	if err != nil {
		return nil, err
	}
	id, err := files.IDOf(f)
	if err != nil {
		f.Close()
		return nil, engine.Errorf(engine.CodeDatabase, "%s: cannot read the file's identity: %v", path, err).WithErr(err).WithHint("check the file")
	}
	base := filepath.Join(s.Dir, key(abs))
	old := load(base)
	if old != nil && old.Source == abs && old.Dev == id.Dev && old.Ino == id.Ino && old.Size == id.Size && old.ModNs == id.ModNs && exists(old.Database) {
		f.Close()
		return old, nil
	}
	sum, err := hashFile(ctx, f)
	f.Close()
	if err != nil {
		return nil, err
	}
	ws := &Workspace{Source: abs, Database: base + ".sqlite", SHA256: sum, Dev: id.Dev, Ino: id.Ino, Size: id.Size, ModNs: id.ModNs}
	if old != nil && old.Source == abs && old.SHA256 == sum && exists(old.Database) {
		// Touched, copied back or moved: the same content, the same tables.
		ws.Imported, ws.Tables = old.Imported, old.Tables
		return ws, save(base, ws)
	}
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return nil, engine.Errorf(engine.CodeDatabase, "cannot make the workspaces' folder %s: %v", s.Dir, err).WithErr(err).
			WithHint("check that Querent's data folder can be written, or set QUERENT_DATA_DIR")
	}
	if err := s.importFile(ctx, abs, base, ws, progress); err != nil {
		return nil, err
	}
	ws.Fresh = true
	return ws, nil
}

// importFile imports abs into a new temporary database beside base and
// renames it into place: a failed or cancelled import leaves the old
// workspace (or none), never a part of one.
func (s *Store) importFile(ctx context.Context, abs, base string, ws *Workspace, progress func(imports.Progress)) error {
	tmp := fmt.Sprintf("%s.%d-%d.importing.sqlite", base, os.Getpid(), time.Now().UnixNano())
	defer os.Remove(tmp)
	rep, err := s.Importer.Import(ctx, imports.Request{Target: tmp, Inputs: []string{abs}, Progress: progress})
	if err != nil {
		return err
	}
	for _, t := range rep.Tables {
		ws.Tables = append(ws.Tables, t.Name)
	}
	if err := os.Rename(tmp, ws.Database); err != nil {
		return engine.Errorf(engine.CodeDatabase, "cannot put the workspace of %s in place: %v", filepath.Base(abs), err).WithErr(err).
			WithHint("check that Querent's data folder can be written, then open the file again")
	}
	files.SyncDir(filepath.Dir(base))
	ws.Imported = time.Now().UTC()
	return save(base, ws)
}

// hashFile is the hex sha256 of f's content, read from its start with
// ReadAt (the descriptor's offset is left alone), checking ctx as it goes.
func hashFile(ctx context.Context, f *os.File) (string, error) {
	h := sha256.New()
	buf := make([]byte, 1<<20)
	var off int64
	for {
		if err := ctx.Err(); err != nil {
			return "", engine.AsError(err)
		}
		n, err := f.ReadAt(buf, off)
		h.Write(buf[:n])
		off += int64(n)
		if errors.Is(err, io.EOF) {
			return hex.EncodeToString(h.Sum(nil)), nil
		}
		if err != nil {
			return "", engine.Errorf(engine.CodeDatabase, "cannot read %s: %v", filepath.Base(f.Name()), err).WithErr(err).WithHint("check the file and the disk")
		}
	}
}

// load reads the workspace record beside base, or nil.
func load(base string) *Workspace {
	b, err := os.ReadFile(base + ".json")
	if err != nil {
		return nil
	}
	var ws Workspace
	if json.Unmarshal(b, &ws) != nil {
		return nil
	}
	return &ws
}

// save writes the workspace record beside base, atomically.
func save(base string, ws *Workspace) error {
	b, err := json.MarshalIndent(ws, "", " ")
	if err != nil {
		return engine.Errorf(engine.CodeInternal, "cannot write the workspace record: %v", err).WithErr(err)
	}
	if err := files.WriteFileAtomic(base+".json", b, 0o600); err != nil {
		return engine.Errorf(engine.CodeDatabase, "cannot write the workspace record %s: %v", base+".json", err).WithErr(err).
			WithHint("check that Querent's data folder can be written")
	}
	return nil
}

func exists(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}
