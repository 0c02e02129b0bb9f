package sqlite

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"unsafe"

	"modernc.org/libc"
	lib "modernc.org/sqlite/lib"
)

// bulkConn is a bare SQLite connection for the import writer, used by one
// goroutine only. It calls SQLite's C API directly instead of going through
// database/sql and the driver: the connection is opened without SQLite's
// per-call mutex (SQLITE_OPEN_NOMUTEX; the driver always asks for
// FULLMUTEX), and a batch of rows is bound from one buffer, without the
// driver's per-argument lookups and allocations. Profiling showed those two
// costs at about a third of an import's writing time.
type bulkConn struct {
	tls *libc.TLS
	db  uintptr
}

// outPtr calls f with a pointer-sized cell of C memory (on the TLS stack)
// for SQLite to write a pointer into (a handle, a statement), and returns
// what it wrote. Go memory cannot be used: the race detector's pointer
// checks refuse C code writing into the Go heap.
func (c *bulkConn) outPtr(f func(cell uintptr) int32) (uintptr, int32) {
	size := int(unsafe.Sizeof(uintptr(0)))
	cell := c.tls.Alloc(size)
	defer c.tls.Free(size)
	rc := f(cell)
	b := libc.GoBytes(cell, size)
	if size == 8 {
		return uintptr(binary.NativeEndian.Uint64(b)), rc
	}
	return uintptr(binary.NativeEndian.Uint32(b)), rc
}

// bulkError is a SQLite error of the bulk connection.
type bulkError struct {
	code int32
	msg  string
}

func (e *bulkError) Error() string { return e.msg }

func openBulk(path string) (*bulkConn, error) {
	c := &bulkConn{tls: libc.NewTLS()}
	name, err := libc.CString(path)
	if err != nil {
		c.tls.Close()
		return nil, err
	}
	defer libc.Xfree(c.tls, name)
	db, rc := c.outPtr(func(cell uintptr) int32 {
		return lib.Xsqlite3_open_v2(c.tls, name, cell, lib.SQLITE_OPEN_READWRITE|lib.SQLITE_OPEN_CREATE|lib.SQLITE_OPEN_NOMUTEX, 0)
	})
	c.db = db
	if rc != lib.SQLITE_OK {
		err := c.err(rc)
		c.close()
		return nil, err
	}
	lib.Xsqlite3_extended_result_codes(c.tls, c.db, 1)
	return c, nil
}

func (c *bulkConn) err(rc int32) error {
	msg := "out of memory"
	if c.db != 0 {
		msg = libc.GoString(lib.Xsqlite3_errmsg(c.tls, c.db))
		rc = lib.Xsqlite3_extended_errcode(c.tls, c.db)
	}
	return &bulkError{code: rc, msg: msg}
}

func (c *bulkConn) close() error {
	var err error
	if c.db != 0 {
		if rc := lib.Xsqlite3_close_v2(c.tls, c.db); rc != lib.SQLITE_OK {
			err = c.err(rc)
		}
		c.db = 0
	}
	if c.tls != nil {
		c.tls.Close()
		c.tls = nil
	}
	return err
}

// exec runs statements that return nothing.
func (c *bulkConn) exec(sql string) error {
	z, err := libc.CString(sql)
	if err != nil {
		return err
	}
	defer libc.Xfree(c.tls, z)
	if rc := lib.Xsqlite3_exec(c.tls, c.db, z, 0, 0, 0); rc != lib.SQLITE_OK {
		return c.err(rc)
	}
	return nil
}

func (c *bulkConn) busyTimeout(ms int) { lib.Xsqlite3_busy_timeout(c.tls, c.db, int32(ms)) }

// bulkStmt is a prepared statement of a bulkConn.
type bulkStmt struct {
	c     *bulkConn
	p     uintptr
	nArgs int
}

func (c *bulkConn) prepare(sql string) (*bulkStmt, error) {
	z, err := libc.CString(sql)
	if err != nil {
		return nil, err
	}
	defer libc.Xfree(c.tls, z)
	p, rc := c.outPtr(func(cell uintptr) int32 {
		return lib.Xsqlite3_prepare_v2(c.tls, c.db, z, -1, cell, 0)
	})
	if rc != lib.SQLITE_OK {
		return nil, c.err(rc)
	}
	return &bulkStmt{c: c, p: p, nArgs: strings.Count(sql, "?")}, nil
}

func (s *bulkStmt) close() {
	if s.p != 0 {
		lib.Xsqlite3_finalize(s.c.tls, s.p)
		s.p = 0
	}
}

// execValues binds values (int64, float64, string, []byte, bool or nil) to
// the statement's parameters in order, runs it once and resets it. All the
// text of the call is copied into one C buffer, bound in place.
func (s *bulkStmt) execValues(vals []any) error {
	if len(vals) != s.nArgs {
		return fmt.Errorf("bulk insert: %d values for %d parameters", len(vals), s.nArgs)
	}
	tls := s.c.tls
	var sb strings.Builder
	text := false
	for _, v := range vals {
		switch x := v.(type) {
		case string:
			sb.WriteString(x)
			text = true
		case []byte:
			sb.Write(x)
			text = true
		}
	}
	// Even all-empty text needs a real pointer: a NULL one binds NULL.
	var buf uintptr
	if text {
		var err error
		if buf, err = libc.CString(sb.String()); err != nil {
			return err
		}
		defer libc.Xfree(tls, buf)
	}
	off := uintptr(0)
	var rc int32
	for i, v := range vals {
		idx := int32(i + 1)
		switch x := v.(type) {
		case nil:
			rc = lib.Xsqlite3_bind_null(tls, s.p, idx)
		case int64:
			rc = lib.Xsqlite3_bind_int64(tls, s.p, idx, x)
		case float64:
			if math.IsNaN(x) {
				rc = lib.Xsqlite3_bind_null(tls, s.p, idx)
			} else {
				rc = lib.Xsqlite3_bind_double(tls, s.p, idx, x)
			}
		case bool:
			var n int64
			if x {
				n = 1
			}
			rc = lib.Xsqlite3_bind_int64(tls, s.p, idx, n)
		case string:
			if len(x) > math.MaxInt32 {
				return &bulkError{code: lib.SQLITE_TOOBIG, msg: "string or blob too big"}
			}
			// SQLITE_STATIC (0): the buffer outlives the step below.
			rc = lib.Xsqlite3_bind_text(tls, s.p, idx, buf+off, int32(len(x)), 0)
			off += uintptr(len(x))
		case []byte:
			if len(x) > math.MaxInt32 {
				return &bulkError{code: lib.SQLITE_TOOBIG, msg: "string or blob too big"}
			}
			if len(x) == 0 {
				rc = lib.Xsqlite3_bind_zeroblob(tls, s.p, idx, 0) // an empty blob, not NULL
			} else {
				rc = lib.Xsqlite3_bind_blob(tls, s.p, idx, buf+off, int32(len(x)), 0)
			}
			off += uintptr(len(x))
		default:
			return fmt.Errorf("bulk insert: cannot store a %T", v)
		}
		if rc != lib.SQLITE_OK {
			return s.c.err(rc)
		}
	}
	rc = lib.Xsqlite3_step(tls, s.p)
	lib.Xsqlite3_reset(tls, s.p)
	lib.Xsqlite3_clear_bindings(tls, s.p)
	if rc != lib.SQLITE_DONE && rc != lib.SQLITE_ROW {
		return s.c.err(rc)
	}
	return nil
}

// queryStrings runs a query and returns its rows as text (NULL as "").
func (c *bulkConn) queryStrings(sql string, args ...string) ([][]string, error) {
	st, err := c.prepare(sql)
	if err != nil {
		return nil, err
	}
	defer st.close()
	var buf uintptr
	if len(args) > 0 {
		all := strings.Join(args, "")
		if buf, err = libc.CString(all); err != nil {
			return nil, err
		}
		defer libc.Xfree(c.tls, buf)
		off := uintptr(0)
		for i, a := range args {
			if rc := lib.Xsqlite3_bind_text(c.tls, st.p, int32(i+1), buf+off, int32(len(a)), 0); rc != lib.SQLITE_OK {
				return nil, c.err(rc)
			}
			off += uintptr(len(a))
		}
	}
	n := int(lib.Xsqlite3_column_count(c.tls, st.p))
	var out [][]string
	for {
		rc := lib.Xsqlite3_step(c.tls, st.p)
		if rc == lib.SQLITE_DONE {
			return out, nil
		}
		if rc != lib.SQLITE_ROW {
			return nil, c.err(rc)
		}
		row := make([]string, n)
		for i := range row {
			row[i] = libc.GoString(lib.Xsqlite3_column_text(c.tls, st.p, int32(i)))
		}
		out = append(out, row)
	}
}

// step runs the statement to its next row: true for a row, false when done.
func (s *bulkStmt) step() (bool, error) {
	switch rc := lib.Xsqlite3_step(s.c.tls, s.p); rc {
	case lib.SQLITE_ROW:
		return true, nil
	case lib.SQLITE_DONE:
		return false, nil
	default:
		return false, s.c.err(rc)
	}
}

// rowBytes is the size of the current row's text and blob values, read
// without copying them (numbers count nothing: they are fixed-size).
func (s *bulkStmt) rowBytes() int64 {
	tls, p := s.c.tls, s.p
	var n int64
	for i := int32(0); i < lib.Xsqlite3_column_count(tls, p); i++ {
		v := lib.Xsqlite3_column_value(tls, p, i)
		switch lib.Xsqlite3_value_type(tls, v) {
		case lib.SQLITE_TEXT, lib.SQLITE_BLOB:
			n += int64(lib.Xsqlite3_value_bytes(tls, v))
		}
	}
	return n
}

// readRow reads the current row's values into dst as SQLite stores them:
// int64, float64, string (text exactly, NUL bytes included), []byte or nil.
// Each column is fetched once as an sqlite3_value (one lock of the
// connection's mutex) and read with the value API (no lock): the driver's
// connections take the mutex on every call, which showed in profiles.
func (s *bulkStmt) readRow(dst []any) {
	tls, p := s.c.tls, s.p
	for i := range dst {
		v := lib.Xsqlite3_column_value(tls, p, int32(i))
		switch lib.Xsqlite3_value_type(tls, v) {
		case lib.SQLITE_INTEGER:
			dst[i] = lib.Xsqlite3_value_int64(tls, v)
		case lib.SQLITE_FLOAT:
			dst[i] = lib.Xsqlite3_value_double(tls, v)
		case lib.SQLITE_TEXT:
			ptr := lib.Xsqlite3_value_text(tls, v)
			n := int(lib.Xsqlite3_value_bytes(tls, v))
			if n == 0 {
				dst[i] = ""
			} else {
				dst[i] = string(libc.GoBytes(ptr, n))
			}
		case lib.SQLITE_BLOB:
			ptr := lib.Xsqlite3_value_blob(tls, v)
			n := int(lib.Xsqlite3_value_bytes(tls, v))
			if n == 0 {
				dst[i] = []byte{}
			} else {
				// GoBytes aliases SQLite's buffer, which the next step reuses.
				dst[i] = append([]byte(nil), libc.GoBytes(ptr, n)...)
			}
		default:
			dst[i] = nil
		}
	}
}
