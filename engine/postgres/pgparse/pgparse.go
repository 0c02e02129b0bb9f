// Package pgparse runs PostgreSQL's own parser (libpg_query: the
// PostgreSQL 17 grammar, compiled to WebAssembly by
// github.com/wasilibs/go-pgquery and run by wazero, so builds stay pure Go)
// and returns its parse tree as JSON.
//
// It calls the WebAssembly module that go-pgquery embeds through its own
// binding rather than go-pgquery's functions, for three reasons measured on
// go-pgquery's own binding:
//
//   - Startup: compiling the 2.2 MB module takes about 1 s, in every process,
//     and go-pgquery offers no way to keep the compiled code. Here it is
//     compiled in parallel (wazero's compilation workers) and kept in a
//     compilation cache on disk (Warm's folder), so a command-line call
//     loads it in about a quarter of that, while it connects to the server.
//   - The C stack: the module's stack is about 64 KB and libpg_query never
//     sets the base PostgreSQL's check_stack_depth needs, so a query nested
//     a few hundred levels deep (400 CASE expressions, 800 terms of 1 + 1 + …)
//     overflows it silently into the module's data. go-pgquery then hangs for
//     ever at full CPU, or traps and puts the broken instance back in its
//     pool, so that every later parse in the process fails. Here every call
//     runs on a 16 MB stack of its own with a guard zone below it: a call
//     that reaches the zone, traps or runs past its deadline is an error,
//     and its instance is thrown away.
//   - Output: go-pgquery's functions write the module's stderr to the
//     process's own; here it goes nowhere (a face's JSON is on stdout).
//
// The module's bytes are read from go-pgquery's internal package with a
// linkname directive (Go forbids importing it); a test checks that this binding and
// go-pgquery's give the same trees, so an upgrade that changes the module's
// interface fails the tests, not the users.
package pgparse

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"runtime"
	"sync"
	"time"
	_ "unsafe" // go:linkname

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
	"github.com/wasilibs/wazero-helpers/allocator"

	// The package that embeds the module: linked for its bytes.
	_ "github.com/wasilibs/go-pgquery/parser"
)

//go:linkname libPGQuery github.com/wasilibs/go-pgquery/internal/wasm.LibPGQuery
var libPGQuery []byte

// Bounds of one call into the parser.
const (
	stackSize  = 16 << 20 // the C stack of every call
	guardSize  = 64 << 10 // the guard zone below it
	memLimit   = 8192     // pages of 64 KB: 512 MB of linear memory at most
	keepMemory = 64 << 20 // an instance whose memory grew past this is not kept
	maxIdle    = 2        // instances kept for the next calls
	callLimit  = 5 * time.Second
)

// Error is a syntax error reported by the parser.
type Error struct {
	// Message is PostgreSQL's message, e.g. `syntax error at or near "FORM"`.
	Message string
	// Cursor is the 1-based character (not byte) position of the error in
	// the SQL, or 0 when the parser gives none.
	Cursor int
}

// Error returns PostgreSQL's message.
func (e *Error) Error() string { return e.Message }

// ErrTooDeep is returned for a statement whose parse needs more than the
// parser's stack (it is nested too deeply) or more than its time.
var ErrTooDeep = errors.New("the statement is nested too deeply for PostgreSQL's parser")

// Stats say how the module was made ready.
type Stats struct {
	// Compile is the time spent compiling the module or loading it from the
	// cache.
	Compile time.Duration
	// CacheDir is the compilation cache's folder ("" when none).
	CacheDir string
	// Cached is true when the cache already held the compiled module.
	Cached bool
	// CacheErr says why the cache could not be used, if it could not.
	CacheErr error
}

type compiled struct {
	rt    wazero.Runtime
	code  wazero.CompiledModule
	err   error
	stats Stats
}

var (
	warmOnce sync.Once
	ready    = make(chan struct{})
	mod      *compiled

	poolMu sync.Mutex
	idle   []*instance
)

// Warm starts making the module ready in the background, keeping the
// compiled code in cacheDir ("" for no cache on disk). Only the first call
// counts; Parse calls it with "" when nobody did.
func Warm(cacheDir string) {
	warmOnce.Do(func() {
		go func() {
			mod = compile(cacheDir)
			close(ready)
		}()
	})
}

// Ready waits until the module is compiled (or ctx ends).
func Ready(ctx context.Context) error {
	Warm("")
	select {
	case <-ready:
		return mod.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// CompileStats returns how the module was made ready, once it is.
func CompileStats() Stats {
	select {
	case <-ready:
		return mod.stats
	default:
		return Stats{}
	}
}

func compile(cacheDir string) *compiled {
	start := time.Now()
	ctx := context.Background()
	c := &compiled{}
	cfg := wazero.NewRuntimeConfig().
		WithCoreFeatures(api.CoreFeaturesV2 | experimental.CoreFeaturesThreads).
		WithCloseOnContextDone(true).
		WithMemoryLimitPages(memLimit).
		// Without debug information the compiled code has no source map:
		// wazero 1.12 reads a cached source map 8 bytes per system call
		// (517,000 reads, 0.27 s per process); without it a start loads the
		// cache in 18 ms. A trap's stack trace loses its C line numbers.
		WithDebugInfoEnabled(false)
	if cacheDir != "" {
		entries, _ := os.ReadDir(cacheDir)
		cache, err := wazero.NewCompilationCacheWithDir(cacheDir)
		if err != nil {
			c.stats.CacheErr = err
		} else {
			cfg = cfg.WithCompilationCache(cache)
			c.stats.CacheDir = cacheDir
			c.stats.Cached = len(entries) > 0
		}
	}
	c.rt = wazero.NewRuntimeWithConfig(ctx, cfg)
	if _, err := wasi_snapshot_preview1.Instantiate(ctx, c.rt); err != nil {
		c.err = fmt.Errorf("pgparse: %w", err)
		return c
	}
	if err := instantiateWasix(ctx, c.rt); err != nil {
		c.err = fmt.Errorf("pgparse: %w", err)
		return c
	}
	if len(libPGQuery) == 0 {
		c.err = errors.New("pgparse: the parser's WebAssembly module is missing (go-pgquery changed its layout)")
		return c
	}
	code, err := c.rt.CompileModule(experimental.WithCompilationWorkers(ctx, runtime.NumCPU()), libPGQuery)
	if err != nil {
		c.err = fmt.Errorf("pgparse: compiling the parser: %w", err)
		return c
	}
	c.code = code
	c.stats.Compile = time.Since(start)
	return c
}

// instance is one instantiated parser with its own stack.
type instance struct {
	mod                                    api.Module
	mem                                    api.Memory
	malloc, free, parse, freeParse, initFn api.Function
	sp                                     api.MutableGlobal
	region, top                            uint32
	guard                                  []byte
}

func newInstance() (*instance, error) {
	ctx := experimental.WithMemoryAllocator(context.Background(), allocator.NewNonMoving())
	cfg := wazero.NewModuleConfig().WithSysNanotime().WithStartFunctions("_initialize").WithName("")
	m, err := mod.rt.InstantiateModule(ctx, mod.code, cfg)
	if err != nil {
		return nil, fmt.Errorf("pgparse: %w", err)
	}
	in := &instance{mod: m, mem: m.Memory(),
		malloc: m.ExportedFunction("malloc"), free: m.ExportedFunction("free"),
		parse: m.ExportedFunction("pg_query_parse"), freeParse: m.ExportedFunction("pg_query_free_parse_result"),
		initFn: m.ExportedFunction("pg_query_init")}
	sp, ok := m.ExportedGlobal("__stack_pointer").(api.MutableGlobal)
	if !ok || in.malloc == nil || in.free == nil || in.parse == nil || in.freeParse == nil || in.initFn == nil {
		m.Close(context.Background())
		return nil, errors.New("pgparse: the parser's module lacks an expected export (go-pgquery changed it)")
	}
	in.sp = sp
	if _, err := in.initFn.Call(callContext(context.Background(), uint32(sp.Get()))); err != nil {
		m.Close(context.Background())
		return nil, fmt.Errorf("pgparse: init: %w", err)
	}
	// The stack of every call: a block of the module's own heap, with a
	// guard zone at its bottom filled with a pattern. The stack grows down
	// towards the zone; a call that wrote into it came too close to the
	// heap below and its instance is not used again.
	r, err := in.malloc.Call(context.Background(), stackSize+guardSize+16)
	if err != nil || r[0] == 0 {
		m.Close(context.Background())
		return nil, errors.New("pgparse: cannot allocate the parser's stack")
	}
	in.region = uint32(r[0])
	in.top = (in.region + guardSize + stackSize) &^ 15
	in.guard = bytes.Repeat([]byte{0xA5, 0x5A, 0xC3, 0x3C}, guardSize/4)
	if !in.mem.Write(in.region, in.guard) {
		m.Close(context.Background())
		return nil, errors.New("pgparse: cannot write the stack's guard zone")
	}
	return in, nil
}

// call runs f on the instance's own stack.
func (in *instance) call(ctx context.Context, f api.Function, args ...uint64) (uint64, error) {
	saved := in.sp.Get()
	in.sp.Set(uint64(in.top))
	res, err := f.Call(callContext(ctx, in.top), args...)
	if err != nil {
		return 0, err
	}
	in.sp.Set(saved)
	if g, ok := in.mem.Read(in.region, guardSize); !ok || !bytes.Equal(g, in.guard) {
		return 0, ErrTooDeep
	}
	if len(res) == 0 {
		return 0, nil
	}
	return res[0], nil
}

func (in *instance) close() { in.mod.Close(context.Background()) }

func getInstance() (*instance, error) {
	poolMu.Lock()
	if n := len(idle); n > 0 {
		in := idle[n-1]
		idle = idle[:n-1]
		poolMu.Unlock()
		return in, nil
	}
	poolMu.Unlock()
	return newInstance()
}

func putInstance(in *instance) {
	if in.mem.Size() > keepMemory {
		in.close()
		return
	}
	poolMu.Lock()
	defer poolMu.Unlock()
	if len(idle) >= maxIdle {
		in.close()
		return
	}
	idle = append(idle, in)
}

// Parse parses sql (any number of statements) and returns the parse tree as
// libpg_query's JSON: {"version": …, "stmts": [{"stmt": {…}, "stmt_location":
// …, "stmt_len": …}, …]}, node locations being byte offsets in sql. A syntax
// error is an *Error; a statement too deep for the parser is ErrTooDeep.
// ctx bounds the call (5 s at most).
func Parse(ctx context.Context, sql string) ([]byte, error) {
	if err := Ready(ctx); err != nil {
		return nil, err
	}
	if _, ok := ctx.Deadline(); !ok || time.Until(deadline(ctx)) > callLimit {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, callLimit)
		defer cancel()
	}
	in, err := getInstance()
	if err != nil {
		return nil, err
	}
	out, perr, err := in.parseJSON(ctx, sql)
	if err != nil {
		// A trap, a deadline or the guard zone: the instance's memory can
		// no longer be trusted.
		in.close()
		if ctx.Err() != nil {
			if errors.Is(ctx.Err(), context.Canceled) {
				return nil, ctx.Err()
			}
			return nil, ErrTooDeep
		}
		if errors.Is(err, ErrTooDeep) {
			return nil, err
		}
		// A trap: wazero's own stack overflowed, or the C stack ran out
		// of bounds.
		return nil, fmt.Errorf("%w (%v)", ErrTooDeep, err)
	}
	putInstance(in)
	if perr != nil {
		return nil, perr
	}
	return out, nil
}

func deadline(ctx context.Context) time.Time {
	d, _ := ctx.Deadline()
	return d
}

func (in *instance) parseJSON(ctx context.Context, sql string) (out []byte, perr *Error, err error) {
	p, err := in.call(ctx, in.malloc, uint64(len(sql)+1))
	if err != nil {
		return nil, nil, err
	}
	if p == 0 || !in.mem.WriteString(uint32(p), sql) || !in.mem.WriteByte(uint32(p)+uint32(len(sql)), 0) {
		return nil, nil, errors.New("pgparse: cannot copy the statement into the parser")
	}
	defer in.call(ctx, in.free, p)
	// struct PgQueryParseResult { char *parse_tree; char *stderr_buffer; PgQueryError *error; }
	res, err := in.call(ctx, in.malloc, 12)
	if err != nil {
		return nil, nil, err
	}
	defer in.call(ctx, in.free, res)
	if _, err := in.call(ctx, in.parse, res, p); err != nil {
		return nil, nil, err
	}
	defer in.call(ctx, in.freeParse, res)
	buf, ok := in.mem.Read(uint32(res), 12)
	if !ok {
		return nil, nil, errors.New("pgparse: cannot read the parse result")
	}
	if errPtr := binary.LittleEndian.Uint32(buf[8:]); errPtr != 0 {
		// struct PgQueryError { char *message; char *funcname; char *filename;
		// int lineno; int cursorpos; char *context; }
		msg, err := in.cString(errPtr)
		if err != nil {
			return nil, nil, err
		}
		cursor, _ := in.mem.ReadUint32Le(errPtr + 16)
		return nil, &Error{Message: msg, Cursor: int(int32(cursor))}, nil
	}
	tree, err := in.cString(uint32(res))
	if err != nil {
		return nil, nil, err
	}
	return []byte(tree), nil, nil
}

// cString reads the NUL-terminated string whose pointer is at ptrptr.
func (in *instance) cString(ptrptr uint32) (string, error) {
	ptr, ok := in.mem.ReadUint32Le(ptrptr)
	if !ok {
		return "", errors.New("pgparse: bad pointer in the parse result")
	}
	if ptr == 0 {
		return "", nil
	}
	size := in.mem.Size()
	if ptr >= size {
		return "", errors.New("pgparse: bad pointer in the parse result")
	}
	b, _ := in.mem.Read(ptr, size-ptr)
	n := bytes.IndexByte(b, 0)
	if n < 0 {
		return "", errors.New("pgparse: unterminated string in the parse result")
	}
	return string(b[:n]), nil
}
