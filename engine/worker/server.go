package worker

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"

	"querent/engine"
	"querent/engine/files"
	"querent/engine/words"
)

// OpenFunc opens the database a worker serves, in the worker process.
type OpenFunc func(ctx context.Context, args OpenArgs) (engine.Database, error)

// SteppedSchema is implemented by databases whose schema introspection runs
// in bounded steps that a watcher may stop (engine/sqlite): skip names the
// steps not to run, onStep is told of each step before it runs.
type SteppedSchema interface {
	SchemaSteps(ctx context.Context, skip map[string]bool, onStep func(step string, budget time.Duration)) (*engine.Schema, error)
}

// Main serves as a query worker and exits when this process was started as
// one (IsWorker); otherwise it returns at once. Every binary that opens databases
// through Open calls it first thing in main (and test binaries in TestMain),
// since a worker is the same executable started again.
func Main(open OpenFunc) {
	if !IsWorker() {
		return
	}
	err := serve(os.Stdin, os.Stdout, open, os.Exit)
	if err != nil && !errors.Is(err, io.EOF) {
		fmt.Fprintln(os.Stderr, "querent worker:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// serve answers a parent's requests read from r, writing to w, until r
// ends. The first request must open the database. Requests are handled one
// at a time; a cancel frame cancels the one running. When r ends (the
// parent closed it, or died) the process must end at once, even in the
// middle of a statement that SQLite cannot interrupt: the reader calls
// exit itself.
func serve(r io.Reader, w io.Writer, open OpenFunc, exit func(int)) error {
	fw := newFrameWriter(w)
	var hello [8]byte
	binary.BigEndian.PutUint64(hello[:], protocolVersion)
	if err := fw.write(frameHello, hello[:]); err != nil {
		return err
	}
	s := &server{fw: fw, open: open}
	reqs := make(chan request, 16)
	done := make(chan error, 1)
	go func() {
		br := bufio.NewReaderSize(r, 64<<10)
		for {
			f, err := readFrame(br)
			if err != nil {
				if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
					exit(0)
				}
				done <- err
				return
			}
			switch f.typ {
			case frameRequest:
				var req request
				if err := decodeGob(f, &req); err != nil {
					done <- err
					return
				}
				reqs <- req
			case frameCancel:
				if len(f.payload) == 8 {
					s.cancel(binary.BigEndian.Uint64(f.payload))
				}
			case frameLimit:
				if len(f.payload) == 8 {
					s.setMemory(int64(binary.BigEndian.Uint64(f.payload)))
				}
			}
		}
	}()
	for {
		select {
		case err := <-done:
			// The parent is gone: stop now, whatever is running.
			if errors.Is(err, io.ErrUnexpectedEOF) {
				err = io.EOF
			}
			return err
		case req := <-reqs:
			if err := s.handle(req); err != nil {
				return err
			}
		}
	}
}

// openArgs turns the parent's open request into the OpenFunc's arguments:
// the file is the inherited descriptor, or the path opened here and
// checked to be the parent's file in the same state.
func openArgs(w openWire) (OpenArgs, error) {
	a := OpenArgs{Path: w.Path, Snapshot: w.Snapshot, MaxMemory: w.MaxMemory, SkipCheck: w.SkipCheck}
	var f *os.File
	switch {
	case w.Inherited:
		f = os.NewFile(inheritedFD, w.ReadPath)
		if f == nil {
			return a, engine.Errorf(engine.CodeInternal, "the query worker did not inherit the database file")
		}
	case w.ReadPath != "":
		of, _, err := files.OpenDatabase(w.ReadPath)
		if err != nil {
			return a, err
		}
		f = of
	default:
		return a, nil
	}
	id, err := files.IDOf(f)
	if err != nil {
		return a, engine.Errorf(engine.CodeDatabase, "%s: cannot read: %v", w.Path, err).WithErr(err)
	}
	if why := w.ReadID.Changed(id); why != "" {
		return a, changedError(w.Path, why)
	}
	a.File = f
	return a, nil
}

// changedError is the refusal of a file that is not what was opened.
func changedError(path, why string) *engine.Error {
	return engine.Errorf(engine.CodeDatabase, "%s changed on disk while Querent had it open (%s); Querent reads a file only in the state it opened and checked", path, why).SayHint(
		words.New("hint.reopen_changed", words.MCP, words.Serve))
}

// MemoryLimiter is implemented by databases whose statements' memory can
// be bounded while they run (engine/sqlite): the worker gives each call's
// share of the ceiling to it.
type MemoryLimiter interface {
	SetMemoryLimit(limit int64)
}

// server is the worker's state: the one open database.
type server struct {
	fw   *frameWriter
	open OpenFunc
	db   engine.Database
	// dbReady is the database once opened, for the reader goroutine.
	dbReady atomic.Pointer[engine.Database]

	mu       sync.Mutex
	running  uint64
	cancelFn context.CancelFunc
}

// setMemory applies a call's share of the memory ceiling: Go's memory
// limit at half of it (its collector works harder as the heap nears
// it), the database's (SQLite's heap, the result caps).
func (s *server) setMemory(limit int64) {
	if limit <= 0 {
		return
	}
	debug.SetMemoryLimit(limit / 2)
	if db := s.dbReady.Load(); db != nil {
		if m, ok := (*db).(MemoryLimiter); ok {
			m.SetMemoryLimit(limit)
		}
	}
}

// giveBack returns to the system the memory a large call left free in
// Go's heap, so that an idle worker costs its base again (its size is
// counted against the ceiling, idle or not).
func giveBack() {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/free:bytes"}, {Name: "/memory/classes/heap/unused:bytes"}}
	metrics.Read(sample)
	var free uint64
	for _, m := range sample {
		if m.Value.Kind() == metrics.KindUint64 {
			free += m.Value.Uint64()
		}
	}
	if free > 32<<20 {
		debug.FreeOSMemory()
	}
}

func (s *server) cancel(id uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.running == id && s.cancelFn != nil {
		s.cancelFn()
	}
}

// handle answers one request; an error is a failure to write to the
// parent, which ends the worker.
func (s *server) handle(req request) error {
	ctx, cancel := context.WithCancel(context.Background())
	s.mu.Lock()
	s.running, s.cancelFn = req.ID, cancel
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.running, s.cancelFn = 0, nil
		s.mu.Unlock()
		cancel()
	}()
	s.setMemory(req.Memory)
	defer giveBack()
	rep := reply{ID: req.ID}
	var err error
	if s.db == nil && req.Op != opOpen {
		err = engine.Errorf(engine.CodeInternal, "the query worker has no database open")
	} else {
		err = s.do(ctx, req, &rep)
	}
	if errors.Is(err, errWrite) {
		return err
	}
	rep.Err = toWire(err)
	return s.fw.writeGob(frameReply, rep)
}

// errWrite marks a failure to write to the parent.
var errWrite = errors.New("cannot write to the parent")

func (s *server) do(ctx context.Context, req request, rep *reply) error {
	switch req.Op {
	case opOpen:
		return s.openDB(ctx, req, rep)
	case opSchema:
		return s.schema(ctx, req, rep)
	case opValidate:
		v, err := s.db.Validate(ctx, req.SQL)
		rep.Valid = v
		return err
	case opExplain:
		h, err := s.db.Explain(ctx, req.SQL)
		rep.Hints = h
		return err
	case opRun:
		return s.run(ctx, req, rep)
	case opStream:
		return s.stream(ctx, req, rep)
	}
	return engine.Errorf(engine.CodeInternal, "the query worker does not know the request %q", req.Op)
}

// openDB opens the database the worker serves.
func (s *server) openDB(ctx context.Context, req request, rep *reply) error {
	if req.Open.MaxMemory > 0 {
		// Go's collector works harder as the heap nears half the ceiling;
		// SQLite's own heap is limited by the opener.
		debug.SetMemoryLimit(req.Open.MaxMemory / 2)
	}
	args, err := openArgs(req.Open)
	if err != nil {
		return err
	}
	db, err := s.open(ctx, args)
	if err != nil {
		return err
	}
	s.db = db
	s.dbReady.Store(&db)
	o := &openReply{Name: db.Name(), Dialect: db.Dialect(), Warnings: db.Warnings()}
	if f, ok := db.(interface{ Path() string }); ok {
		o.Path = f.Path()
	}
	if args.Path == "" {
		// The demo's sha256 is the worker's to know (its own bytes).
		if f, ok := db.(engine.Fingerprinter); ok {
			rep.SHA, _ = f.SHA256(ctx)
		}
	}
	rep.Open = o
	return nil
}

// schema reads the schema, announcing each bounded step to the parent
// where the database reads it in steps (SteppedSchema), without the steps
// the parent says to skip.
func (s *server) schema(ctx context.Context, req request, rep *reply) error {
	st, ok := s.db.(SteppedSchema)
	if !ok {
		sch, err := s.db.Schema(ctx)
		rep.Schema = sch
		return err
	}
	skip := map[string]bool{}
	for _, n := range req.Skip {
		skip[n] = true
	}
	var werr error
	sch, err := st.SchemaSteps(ctx, skip, func(name string, budget time.Duration) {
		if werr == nil {
			werr = s.fw.writeGob(frameStep, step{ID: req.ID, Name: name, Budget: budget})
		}
	})
	if werr != nil {
		return errWrite
	}
	rep.Schema = sch
	return err
}

// run runs a statement and sends its rows in row frames before the reply.
func (s *server) run(ctx context.Context, req request, rep *reply) error {
	res, err := s.db.Run(ctx, req.SQL, req.Run)
	if err != nil {
		return err
	}
	var b rowBatch
	b.reset(req.ID, len(res.Columns))
	for _, row := range res.Rows {
		b.add(row)
		if b.full() {
			if err := s.fw.write(frameRows, b.payloadParts()...); err != nil {
				return errWrite
			}
			b.reset(req.ID, len(res.Columns))
		}
	}
	if b.rows > 0 {
		if err := s.fw.write(frameRows, b.payloadParts()...); err != nil {
			return errWrite
		}
	}
	rep.Result = &resultMeta{Query: res.Query, ExecutedSQL: res.ExecutedSQL, Columns: res.Columns,
		Truncated: res.Truncated, Elapsed: res.Elapsed, TablesUsed: res.TablesUsed, Warnings: res.Warnings, ColumnsRead: res.ColumnsRead}
	return nil
}

// stream streams a statement's rows: its columns in a frame, then its rows
// in row frames as they come, before the reply.
func (s *server) stream(ctx context.Context, req request, rep *reply) error {
	var b rowBatch
	var werr error
	flush := func() error {
		if b.rows == 0 {
			return nil
		}
		if err := s.fw.write(frameRows, b.payloadParts()...); err != nil {
			werr = errWrite
			return werr
		}
		b.reset(req.ID, b.cols)
		return nil
	}
	info, err := s.db.Stream(ctx, req.SQL, req.Stream, func(cols []engine.Column) error {
		b.reset(req.ID, len(cols))
		if err := s.fw.writeGob(frameColumns, cols); err != nil {
			werr = errWrite
			return werr
		}
		return nil
	}, func(row []engine.Value) error {
		b.add(row)
		if b.full() {
			return flush()
		}
		return nil
	})
	if werr != nil {
		return werr
	}
	if err == nil {
		if ferr := flush(); ferr != nil {
			return ferr
		}
	}
	rep.Info = info
	return err
}
