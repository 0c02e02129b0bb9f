package worker

import (
	"context"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"querent/engine"
	"querent/engine/files"
	"querent/engine/words"
)

// Bounds of the parent's watch over a worker.
const (
	// runGrace is how long past a statement's own timeout the parent waits
	// for the worker to stop it before killing the worker: SQLite stops an
	// interruptible statement within a few milliseconds of its deadline.
	runGrace = 60 * time.Millisecond
	// cancelGrace is how long a cancelled request may take to stop.
	cancelGrace = 50 * time.Millisecond
	// stepGrace is how long past its budget a schema step may run.
	stepGrace = 250 * time.Millisecond
	// checkTimeout bounds validating and explaining a statement: compiling
	// is bounded by the guard's limits and takes microseconds.
	checkTimeout = 10 * time.Second
	// memoryPoll is how often the worker's size is read while it works.
	memoryPoll = 20 * time.Millisecond
	// maxSkips bounds the schema steps skipped one by one; past it, or once
	// schemaBudget is spent, every remaining bounded step is skipped, so
	// that a file opens within seconds however many hostile views it has.
	maxSkips     = 8
	schemaBudget = 1500 * time.Millisecond
)

// Config says how to start workers. The zero value starts this very
// executable (start.go), which must call Main first thing.
type Config struct {
	// Env adds to the worker's environment.
	Env []string
	// Budget is the memory ceiling shared by all of Querent (the parent,
	// every worker of every database, imports): a call runs with a share
	// of it (budget.go). nil: a budget of DefaultMaxMemory for this
	// database alone.
	Budget *Budget
	// MaxMemory, when set, caps the share of one statement: the worker is
	// killed, and the statement fails with too_big, when its resident size
	// goes past its share.
	MaxMemory int64
	// StartTimeout bounds starting a worker (default 20 s).
	StartTimeout time.Duration
	// OpenTimeout bounds opening the database in it, integrity check
	// included (default 60 s).
	OpenTimeout time.Duration
	// File is the user's database file, opened once by the caller
	// (files.OpenDatabase: without blocking, checked to be a regular file
	// from its descriptor); the client owns it from then on and closes it.
	// nil: Open opens the path so. Every worker, the first and each one
	// started after a kill, reads this descriptor, never the path.
	File *os.File
	// Snapshot is a private copy of the file, made by the caller, for the
	// workers to read instead (the client opens it once); Warnings come
	// before the worker's own; OnClose runs when the client is closed (to
	// release the snapshot).
	Snapshot string
	// Hashes, when set, remembers the sha256 of files across runs (SHA256).
	Hashes   HashStore
	Warnings []string
	OnClose  func()
}

// DefaultMaxMemory is the default memory ceiling of one statement: 1 GB.
const DefaultMaxMemory = 1 << 30

func (c Config) withDefaults() (Config, error) {
	if selfExeErr != nil {
		return c, startError("querent", selfExeErr)
	}
	if c.Budget == nil {
		c.Budget = NewBudget(DefaultMaxMemory)
	}
	if c.StartTimeout <= 0 {
		c.StartTimeout = 20 * time.Second
	}
	if c.OpenTimeout <= 0 {
		c.OpenTimeout = 60 * time.Second
	}
	return c, nil
}

// Client is a database whose queries run in worker processes: the same
// guarded database as in-process, behind a boundary that can be killed.
// A statement that outlives its timeout, a cancelled one that does not
// stop, or a worker that grows past its share of the memory ceiling is
// ended by killing its worker. So a timeout is a promise: one SQL function
// call over a huge value runs in SQLite without any check for interrupts,
// and only a process boundary stops it on time.
//
// A worker serves one call at a time (it has one connection); a client
// keeps a pool of them, which grows when every one is busy (up to the
// Budget's bounds) and shrinks back when calls are few. So a runaway
// statement holds up its own call only: the red team's 300 calls with 5
// runaways among them waited behind the runaways on one worker, and 263
// timed out without ever running.
type Client struct {
	engine.SensitiveHolder
	cfg    Config
	budget *Budget
	args   openWire
	info   openReply

	// file is the user's file, read the one the workers read (file or
	// the snapshot), readID what read was when opened: a call finds read
	// in another state refused (changedError).
	file, read *os.File
	readID     files.FileID

	mu      sync.Mutex
	procs   map[*process]struct{} // every worker alive, idle or busy
	closed  bool
	checked bool // a worker opened the file with its integrity check

	nextID atomic.Uint64
	starts atomic.Int64

	schemaMu sync.Mutex
	schema   *engine.Schema
	skip     []string

	// id is the user's file's identity; demoSHA the demo's sha256.
	id      *identity
	demoSHA string
}

var (
	_ engine.Database      = (*Client)(nil)
	_ engine.Fingerprinter = (*Client)(nil)
)

// Open starts a worker that opens the database at path ("" for the bundled
// demo) and returns its client. The errors are the opener's (a file that
// is not a database, damaged, missing…), or internal when no worker can
// be started.
func Open(ctx context.Context, path string, cfg Config) (*Client, error) {
	if IsWorker() {
		return nil, engine.Errorf(engine.CodeInternal, "a query worker cannot start workers of its own")
	}
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	c := &Client{cfg: cfg, budget: cfg.Budget, args: openWire{Path: path}, procs: map[*process]struct{}{}}
	if err := c.openFiles(ctx, path); err != nil {
		c.Close()
		return nil, err
	}
	c.budget.register(c)
	// The first worker opens the file, integrity check included, and
	// waits idle for the first call.
	p, err := c.get(ctx, time.Time{})
	if err != nil {
		c.Close()
		return nil, engine.AsError(err)
	}
	c.budget.put(c, p)
	return c, nil
}

// openFiles opens the user's file (unless the caller did) and the
// snapshot, once, notes what the workers will read, and identifies the
// user's file.
func (c *Client) openFiles(ctx context.Context, path string) error {
	c.file = c.cfg.File
	c.cfg.File = nil
	if path == "" {
		return nil
	}
	if c.file == nil {
		f, _, err := files.OpenDatabase(path)
		if err != nil {
			return err
		}
		c.file = f
	}
	uid, err := files.IDOf(c.file)
	if err != nil {
		return engine.Errorf(engine.CodeDatabase, "%s: cannot read: %v", path, err).WithErr(err)
	}
	c.id = newIdentity(ctx, c.file, uid, c.cfg.Hashes)
	c.read = c.file
	if c.cfg.Snapshot != "" {
		f, _, err := files.OpenDatabase(c.cfg.Snapshot)
		if err != nil {
			return err
		}
		c.read = f
		c.args.Snapshot = true
	}
	id, err := files.IDOf(c.read)
	if err != nil {
		return engine.Errorf(engine.CodeDatabase, "%s: cannot read: %v", path, err).WithErr(err)
	}
	c.readID = id
	c.args.ReadPath, c.args.ReadID = c.read.Name(), id
	c.args.Inherited = canInherit
	return nil
}

// unchanged refuses a call when the file the workers read is no longer in
// the state it was opened in: written in place, it is not the file that
// was checked, and a worker with an immutable connection would read it
// torn. (A file replaced or re-linked under its path is not seen at all:
// the descriptor still holds the one opened.)
func (c *Client) unchanged() error {
	if c.read == nil {
		return nil
	}
	id, err := files.IDOf(c.read)
	if err != nil {
		return engine.Errorf(engine.CodeDatabase, "%s: cannot read: %v", c.shown(), err).WithErr(err)
	}
	if why := c.readID.Changed(id); why != "" {
		return changedError(c.shown(), why)
	}
	return nil
}

// Starts is how many workers this client has started.
func (c *Client) Starts() int { return int(c.starts.Load()) }

// PID is the process id of one running worker, or 0.
func (c *Client) PID() int {
	if pids := c.PIDs(); len(pids) > 0 {
		return pids[0]
	}
	return 0
}

// PIDs are the process ids of the running workers.
func (c *Client) PIDs() []int {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []int
	for p := range c.procs {
		if p.cmd.Process != nil {
			out = append(out, p.cmd.Process.Pid)
		}
	}
	return out
}

func (c *Client) isClosed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}

// get returns a worker for a call: an idle one, or a new one started (and
// the database opened in it) when all are busy and the budget has room;
// else it waits, until ctx ends or the deadline (if set) passes
// (errExpired).
func (c *Client) get(ctx context.Context, deadline time.Time) (*process, error) {
	p, spawn, err := c.budget.take(ctx, deadline, c)
	if err != nil || !spawn {
		return p, err
	}
	p, err = c.start(ctx)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// start starts a worker in a place the budget gave, and opens the
// database in it: with its integrity check the first time, not again in
// the workers that follow (the parent sees the file unchanged).
func (c *Client) start(ctx context.Context) (*process, error) {
	placed := &process{} // stands for the place until the worker exists
	fail := func(err error) (*process, error) {
		c.budget.gone(c, placed)
		return nil, err
	}
	if err := c.unchanged(); err != nil {
		return fail(err)
	}
	p, err := spawn(selfExe, c.cfg.Env, c.cfg.StartTimeout, c.read)
	if err != nil {
		return fail(err)
	}
	placed.placeGiven.Store(true) // the place is p's now
	c.starts.Add(1)
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		p.kill()
		c.budget.gone(c, p)
		return nil, engine.Errorf(engine.CodeInternal, "the database was closed")
	}
	c.procs[p] = struct{}{}
	first := !c.checked
	c.mu.Unlock()
	args := c.args
	args.SkipCheck = !first
	args.MaxMemory = c.startMemory()
	rep, err := c.roundTrip(ctx, p, request{ID: c.nextID.Add(1), Op: opOpen, Open: args}, callOpts{
		deadline: time.Now().Add(c.cfg.OpenTimeout),
		onTimeout: func() error {
			return engine.Errorf(engine.CodeDatabase, "%s: opening it took longer than %s", c.shown(), c.cfg.OpenTimeout).WithHint(
				"the file may be very large or damaged; try again, or open a copy")
		},
	}, nil)
	if err == nil && rep.Open == nil {
		err = engine.Errorf(engine.CodeInternal, "the query worker did not say what it opened")
	}
	if err != nil {
		c.drop(p)
		return nil, err
	}
	c.mu.Lock()
	if first && !c.checked {
		c.checked = true
		c.info = *rep.Open
		c.info.Warnings = append(append([]string(nil), c.cfg.Warnings...), c.info.Warnings...)
		c.demoSHA = rep.SHA
	}
	c.mu.Unlock()
	return p, nil
}

// startMemory is the limit a new worker starts with: a running call's
// share as it would be now (each call then sends its own).
func (c *Client) startMemory() int64 {
	n := c.budget.workers() / 2
	if c.cfg.MaxMemory > 0 {
		n = min(n, c.cfg.MaxMemory)
	}
	return n
}

func (c *Client) shown() string {
	if c.info.Name != "" {
		return c.info.Name
	}
	if c.args.Path == "" {
		return "the demo database"
	}
	return c.args.Path
}

// drop kills a worker and gives up its place.
func (c *Client) drop(p *process) {
	c.mu.Lock()
	delete(c.procs, p)
	c.mu.Unlock()
	p.kill()
	c.budget.gone(c, p)
}

// callOpts say how the parent watches one request.
type callOpts struct {
	// deadline, when set, is when the worker is killed and onTimeout's
	// error returned.
	deadline  time.Time
	onTimeout func() error
	// onFrame receives the request's row and column frames; an error
	// cancels the request (and is returned once it stopped).
	onFrame func(frame) error
}

// stepOverrun says a schema step ran past its budget and the worker was killed.
type stepOverrun struct{ step string }

func (e *stepOverrun) Error() string { return "the step " + e.step + " ran past its budget" }

// roundTrip sends req to p and waits for its reply, watching the deadline,
// the context, the call's share of memory (sh; nil while a worker opens
// the database: the open's own limit) and the schema steps' budgets.
func (c *Client) roundTrip(ctx context.Context, p *process, req request, o callOpts, sh *share) (*reply, error) {
	if err := p.send(req); err != nil {
		c.drop(p)
		if ctx.Err() != nil {
			return nil, engine.AsError(ctx.Err())
		}
		return nil, p.deathError("stopped")
	}
	t := newTrip(ctx, c, p, req, o, sh)
	defer t.stop()
	done := ctx.Done()
	for {
		select {
		case f := <-p.frames:
			p.took(f)
			if rep, end, err := t.frame(f); end {
				return rep, err
			}
		case <-p.dead:
			c.drop(p)
			switch {
			case t.frameErr != nil:
				return nil, t.frameErr
			case ctx.Err() != nil:
				return nil, engine.AsError(ctx.Err())
			}
			return nil, p.deathError("stopped unexpectedly")
		case <-t.hard:
			c.drop(p)
			if t.frameErr != nil {
				return nil, t.frameErr
			}
			return nil, o.onTimeout()
		case <-t.stepC:
			c.drop(p)
			return nil, &stepOverrun{step: t.curStep}
		case <-done:
			done = nil
			t.startCancel()
		case <-t.graceC:
			c.drop(p)
			if t.frameErr != nil {
				return nil, t.frameErr
			}
			return nil, engine.AsError(ctx.Err())
		case <-t.memC:
			if err := t.memory(); err != nil {
				return nil, err
			}
		}
	}
}

// trip is one request's round trip, as the parent watches it: the hard
// deadline, the worker's size polled, the current schema step's budget,
// the grace a cancelled request has to stop, and the first error of the
// caller's frame handler.
type trip struct {
	c   *Client
	p   *process
	ctx context.Context
	req request
	o   callOpts
	sh  *share

	hard, memC, stepC, graceC <-chan time.Time
	stepTimer, graceTimer     *time.Timer
	stops                     []func()
	curStep                   string
	frameErr                  error
}

func newTrip(ctx context.Context, c *Client, p *process, req request, o callOpts, sh *share) *trip {
	t := &trip{c: c, p: p, ctx: ctx, req: req, o: o, sh: sh}
	if !o.deadline.IsZero() {
		hard := time.NewTimer(time.Until(o.deadline))
		t.stops = append(t.stops, func() { hard.Stop() })
		t.hard = hard.C
	}
	if rssOf(p) > 0 {
		poll := time.NewTicker(memoryPoll)
		t.stops = append(t.stops, poll.Stop)
		t.memC = poll.C
	}
	t.stepTimer = time.NewTimer(time.Hour)
	t.stepTimer.Stop()
	t.graceTimer = time.NewTimer(time.Hour)
	t.graceTimer.Stop()
	t.stops = append(t.stops, func() { t.stepTimer.Stop() }, func() { t.graceTimer.Stop() })
	return t
}

// stop stops the trip's timers.
func (t *trip) stop() {
	for i := len(t.stops) - 1; i >= 0; i-- {
		t.stops[i]()
	}
}

// startCancel asks the worker to cancel the request, once, and gives it
// cancelGrace to stop.
func (t *trip) startCancel() {
	if t.graceC == nil {
		t.p.cancel(t.req.ID)
		t.graceTimer.Reset(cancelGrace)
		t.graceC = t.graceTimer.C
	}
}

// frame takes one frame of the request: the reply ends the trip (end),
// a step starts its budget, the others go to the caller's handler (whose
// error cancels the request).
func (t *trip) frame(f frame) (rep *reply, end bool, err error) {
	switch f.typ {
	case frameReply:
		rep, err = t.reply(f)
		return rep, true, err
	case frameStep:
		var s step
		if decodeGob(f, &s) == nil {
			t.curStep = s.Name
			t.stepTimer.Reset(s.Budget + stepGrace)
			t.stepC = t.stepTimer.C
		}
	default:
		if t.frameErr == nil && t.o.onFrame != nil {
			if err := t.o.onFrame(f); err != nil {
				t.frameErr = err
				t.startCancel()
			}
		}
	}
	return nil, false, nil
}

// reply reads the worker's reply: its answer, or the error it carries, or
// the caller's frame error or the context's end that came first.
func (t *trip) reply(f frame) (*reply, error) {
	var rep reply
	if err := decodeGob(f, &rep); err != nil || rep.ID != t.req.ID {
		t.c.drop(t.p)
		return nil, engine.Errorf(engine.CodeInternal, "the query worker's answer did not fit the question (%v)", err).WithErr(err)
	}
	if t.frameErr != nil {
		return nil, t.frameErr
	}
	if t.ctx.Err() != nil {
		return nil, engine.AsError(t.ctx.Err())
	}
	if rep.Err != nil {
		return &rep, rep.Err.toError()
	}
	return &rep, nil
}

// memory checks the worker's size against the call's share and, with the
// other processes', against the ceiling: past either, the worker is
// killed and the call fails with too_big.
func (t *trip) memory() error {
	limit := t.req.Open.MaxMemory
	if t.sh != nil {
		limit = t.sh.limit.Load()
	}
	rss := rssOf(t.p)
	switch {
	case rss > limit:
		t.c.drop(t.p)
		return t.c.tooBig(limit)
	case t.sh != nil && t.c.budget.overTree(t.sh, rss):
		t.c.drop(t.p)
		return engine.Errorf(engine.CodeTooBig, "Querent's processes together needed more than the %s memory ceiling, and this query was the largest running: it was stopped",
			engine.FormatSize(t.c.budget.Total())).WithHint(
			"ask for less: fewer rows or columns, shorter values (substr(col, 1, 200)), or aggregate first; run fewer queries at once; the ceiling is a setting (QUERENT_MAX_MEMORY)")
	}
	return nil
}

// tooBig is the error of a call whose worker grew past its share.
func (c *Client) tooBig(limit int64) error {
	shared := ""
	if limit < c.budget.workers()/2 && (c.cfg.MaxMemory == 0 || limit < c.cfg.MaxMemory) {
		shared = fmt.Sprintf(" (its share of Querent's %s ceiling, split among the queries running at once)", engine.FormatSize(c.budget.Total()))
	}
	return engine.Errorf(engine.CodeTooBig, "the query needed more than %s of memory%s and was stopped", engine.FormatSize(limit), shared).WithHint(
		"ask for less: fewer rows or columns, shorter values (substr(col, 1, 200)), or aggregate first; the ceiling is a setting (QUERENT_MAX_MEMORY)")
}

// call runs one request on a worker of the pool, starting one if needed.
func (c *Client) call(ctx context.Context, req request, o callOpts) (*reply, error) {
	if err := c.unchanged(); err != nil {
		return nil, err
	}
	p, err := c.get(ctx, o.deadline)
	if err != nil {
		if err == errExpired {
			return nil, o.onTimeout()
		}
		return nil, engine.AsError(err)
	}
	sh := c.budget.begin(c, p)
	req.ID = c.nextID.Add(1)
	req.Memory = sh.limit.Load()
	rep, err := c.roundTrip(ctx, p, req, o, sh)
	c.budget.end(sh)
	c.mu.Lock()
	_, alive := c.procs[p]
	c.mu.Unlock()
	if alive {
		c.budget.put(c, p)
	}
	return rep, err
}

// Dialect is the database's dialect ("sqlite").
func (c *Client) Dialect() string { return c.info.Dialect }

// Name is the database as shown to the user.
func (c *Client) Name() string { return c.info.Name }

// Path is the absolute path of the user's file, "" for the bundled demo.
func (c *Client) Path() string { return c.info.Path }

// Warnings are what the user should know about this file.
func (c *Client) Warnings() []string { return append([]string(nil), c.info.Warnings...) }

// Schema describes the tables and views. Each bounded step (a count, the
// samples of a table) runs under the worker's watch: a step that outlives
// its budget — a view whose rows never come, one function call over a huge
// value — is stopped by killing the worker, and the schema is read again
// in a new one without that step (its table gets a note). The result is
// kept: the file cannot change while open.
func (c *Client) Schema(ctx context.Context) (*engine.Schema, error) {
	c.schemaMu.Lock()
	defer c.schemaMu.Unlock()
	if c.schema != nil {
		return c.schema, nil
	}
	start := time.Now()
	for {
		skip := c.skip
		if len(skip) >= maxSkips || (len(skip) > 0 && time.Since(start) > schemaBudget) {
			skip = append(append([]string(nil), skip...), "*")
		}
		rep, err := c.call(ctx, request{Op: opSchema, Skip: skip}, callOpts{})
		if so, ok := err.(*stepOverrun); ok {
			if len(c.skip) > maxSkips {
				return nil, engine.Errorf(engine.CodeDatabase, "%s: reading its schema kept running past every budget", c.shown()).WithHint(
					"the file's views may be built to hang whoever opens it; query its tables directly")
			}
			c.skip = append(c.skip, so.step)
			continue
		}
		if err != nil {
			return nil, err
		}
		c.schema = rep.Schema
		return c.schema, nil
	}
}

// Validate compiles sql without running it, in the worker.
func (c *Client) Validate(ctx context.Context, sql string) (*engine.Validation, error) {
	rep, err := c.call(ctx, request{Op: opValidate, SQL: sql}, callOpts{
		deadline: time.Now().Add(checkTimeout), onTimeout: checkTimedOut(sql)})
	if err != nil {
		return nil, err
	}
	return rep.Valid, nil
}

// Explain returns query-plan hints for sql.
func (c *Client) Explain(ctx context.Context, sql string) ([]string, error) {
	rep, err := c.call(ctx, request{Op: opExplain, SQL: sql}, callOpts{
		deadline: time.Now().Add(checkTimeout), onTimeout: checkTimedOut(sql)})
	if err != nil {
		return nil, err
	}
	return rep.Hints, nil
}

func checkTimedOut(sql string) func() error {
	return func() error {
		e := engine.Errorf(engine.CodeTimeout, "checking the query took longer than %s and was stopped", checkTimeout).WithHint(
			"simplify the query; if it is short, the file's schema may be built to hang whoever reads it")
		e.Query = sql
		return e
	}
}

// ranPast is the timeout error of a statement the worker was killed for.
func ranPast(sql string, timeout time.Duration) func() error {
	return func() error {
		e := engine.Errorf(engine.CodeTimeout, "the query ran past its %s timeout and was stopped", timeout).SayHint(
			words.New("hint.cheaper", words.Timeout))
		e.Query = sql
		return e
	}
}

// Run validates and runs sql in the worker, with a row cap and a timeout
// that holds: past it (and a grace of a few tens of milliseconds for the
// worker to stop the statement itself) the worker is killed.
func (c *Client) Run(ctx context.Context, sql string, opts engine.RunOptions) (*engine.Result, error) {
	opts = opts.WithDefaults()
	var rows [][]engine.Value
	rep, err := c.call(ctx, request{Op: opRun, SQL: sql, Run: opts}, callOpts{
		deadline:  time.Now().Add(opts.Timeout + runGrace),
		onTimeout: ranPast(sql, opts.Timeout),
		onFrame: func(f frame) error {
			if f.typ != frameRows {
				return nil
			}
			_, rs, err := decodeRows(f.payload)
			if err != nil {
				return engine.Errorf(engine.CodeInternal, "the query worker sent rows that cannot be read: %v", err).WithErr(err)
			}
			rows = append(rows, rs...)
			return nil
		},
	})
	if err != nil {
		return nil, err
	}
	m := rep.Result
	if m == nil {
		return nil, engine.Errorf(engine.CodeInternal, "the query worker sent no result")
	}
	if rows == nil {
		rows = [][]engine.Value{}
	}
	res := &engine.Result{Query: m.Query, ExecutedSQL: m.ExecutedSQL, Columns: m.Columns, Rows: rows,
		Truncated: m.Truncated, Elapsed: m.Elapsed, TablesUsed: m.TablesUsed, Warnings: m.Warnings, ColumnsRead: m.ColumnsRead}
	c.MarkResult(res)
	return res, nil
}

// Stream validates and runs sql in the worker without the display cap,
// handing each row to row as it arrives; the timeout (default
// engine.DefaultExportTimeout) covers the whole run and holds like Run's.
func (c *Client) Stream(ctx context.Context, sql string, opts engine.StreamOptions,
	columns func([]engine.Column) error, row func([]engine.Value) error) (*engine.StreamInfo, error) {
	if opts.Timeout <= 0 {
		opts.Timeout = engine.DefaultExportTimeout
	}
	rep, err := c.call(ctx, request{Op: opStream, SQL: sql, Stream: opts}, callOpts{
		deadline:  time.Now().Add(opts.Timeout + runGrace),
		onTimeout: ranPast(sql, opts.Timeout),
		onFrame: func(f frame) error {
			switch f.typ {
			case frameColumns:
				var cols []engine.Column
				if err := decodeGob(f, &cols); err != nil {
					return engine.Errorf(engine.CodeInternal, "the query worker sent columns that cannot be read: %v", err).WithErr(err)
				}
				return columns(cols)
			case frameRows:
				_, rs, err := decodeRows(f.payload)
				if err != nil {
					return engine.Errorf(engine.CodeInternal, "the query worker sent rows that cannot be read: %v", err).WithErr(err)
				}
				for _, r := range rs {
					if err := row(r); err != nil {
						return err
					}
				}
			}
			return nil
		},
	})
	if rep != nil && rep.Info != nil {
		return rep.Info, err
	}
	return nil, err
}

// SHA256 returns the hex sha256 of the user's database file (not a
// snapshot; the demo's own bytes for the demo) when it is known, and until
// then the file's quick identity: files.QuickPrefix and 64 hex digits
// (identity.go). It returns at once, or within hashWait when the hash is
// about to end; it never reads the file itself.
func (c *Client) SHA256(ctx context.Context) (string, error) {
	if c.id == nil {
		return c.demoSHA, nil
	}
	return c.id.sha256(ctx), nil
}

// releaseFiles ends the hash, closes the files and runs OnClose, once the
// workers are stopped.
func (c *Client) releaseFiles(file, read *os.File) {
	if c.id != nil {
		c.id.close() // before the file it reads is closed
	}
	if read != nil && read != file {
		read.Close()
	}
	if file != nil {
		file.Close()
	}
	if c.cfg.OnClose != nil {
		c.cfg.OnClose()
	}
}

// Close stops the workers: at once those with a call in flight (that call
// fails), the idle ones by closing their input.
func (c *Client) Close() error {
	c.mu.Lock()
	was := c.closed
	c.closed = true
	procs := c.procs
	c.procs = map[*process]struct{}{}
	c.mu.Unlock()
	if was {
		return nil
	}
	defer c.releaseFiles(c.file, c.read)
	if c.budget == nil {
		return nil
	}
	c.budget.forget(c) // stops the idle ones
	for p := range procs {
		if !p.quitting() {
			p.kill()
			c.budget.gone(c, p)
		}
	}
	return nil
}
