package sqlite

import (
	"fmt"
	"sync/atomic"

	"modernc.org/libc"
	lib "modernc.org/sqlite/lib"
)

// LimitProcessHeap sets a hard limit on the memory SQLite may allocate in
// this process, all connections together: an allocation past it fails, and
// the statement fails with SQLITE_NOMEM (reported as too_big). It is meant
// for the query worker, a process that holds one database.
//
// This build of SQLite keeps no memory statistics (SQLITE_DEFAULT_MEMSTATUS=0),
// and without them the heap limit is silently ignored — which is why
// PRAGMA hard_heap_limit appears not to work. So LimitProcessHeap restarts
// SQLite with statistics on (sqlite3_shutdown, sqlite3_config, then
// sqlite3_initialize): it must be called before any connection is opened.
func LimitProcessHeap(limit int64) error {
	if limit <= 0 {
		return nil
	}
	tls := libc.NewTLS()
	defer tls.Close()
	if rc := lib.Xsqlite3_shutdown(tls); rc != lib.SQLITE_OK {
		return fmt.Errorf("sqlite3_shutdown: %d", rc)
	}
	va := libc.NewVaList(int32(1))
	if va == 0 {
		return fmt.Errorf("sqlite3_config: out of memory")
	}
	defer libc.Xfree(tls, va)
	if rc := lib.Xsqlite3_config(tls, lib.SQLITE_CONFIG_MEMSTATUS, va); rc != lib.SQLITE_OK {
		return fmt.Errorf("sqlite3_config(SQLITE_CONFIG_MEMSTATUS): %d (a connection is already open)", rc)
	}
	if rc := lib.Xsqlite3_initialize(tls); rc != lib.SQLITE_OK {
		return fmt.Errorf("sqlite3_initialize: %d", rc)
	}
	lib.Xsqlite3_hard_heap_limit64(tls, limit)
	if got := lib.Xsqlite3_hard_heap_limit64(tls, -1); got != limit {
		return fmt.Errorf("the heap limit did not hold: %d", got)
	}
	heapLimited.Store(true)
	return nil
}

// heapLimited: LimitProcessHeap turned SQLite's heap limit on here.
var heapLimited atomic.Bool

// setProcessHeapLimit moves the limit LimitProcessHeap set (SQLite lets
// it change at any time; a statement past a lowered limit fails at its
// next allocation). Without LimitProcessHeap it does nothing.
func setProcessHeapLimit(limit int64) {
	if !heapLimited.Load() || limit <= 0 {
		return
	}
	tls := libc.NewTLS()
	defer tls.Close()
	lib.Xsqlite3_hard_heap_limit64(tls, limit)
}

// HeapUsed is the memory SQLite holds in this process now, and the most it
// held; both are 0 unless LimitProcessHeap turned statistics on.
func HeapUsed() (now, peak int64) {
	tls := libc.NewTLS()
	defer tls.Close()
	return lib.Xsqlite3_memory_used(tls), lib.Xsqlite3_memory_highwater(tls, 0)
}
