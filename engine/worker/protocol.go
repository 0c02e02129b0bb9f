package worker

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"sync"
	"time"

	"querent/engine"
	"querent/engine/files"
	"querent/engine/words"
)

// The protocol between a parent and its worker: frames on the worker's
// standard input and output, each a 4-byte big-endian length (of what
// follows), a type byte and a payload. Control messages are gob-encoded
// (one encoder per frame: they are few and small); rows have their own
// compact encoding, since an export sends millions of values.
const (
	frameHello   = 'h' // worker → parent, once at start: its protocol version
	frameRequest = 'q' // parent → worker: a request (gob)
	frameCancel  = 'c' // parent → worker: cancel the request with this id (8 bytes)
	frameReply   = 'r' // worker → parent: the answer to a request (gob), its last frame
	frameRows    = 'w' // worker → parent: a batch of rows (rows encoding)
	frameColumns = 'k' // worker → parent: a stream's columns (gob), before its rows
	frameStep    = 'e' // worker → parent: a bounded step begins (gob)
	frameLimit   = 'm' // parent → worker: the running call's share of memory now (8 bytes)
)

// protocolVersion changes whenever the frames change: a parent and a worker
// are the same binary, so a mismatch means the binary was replaced on disk.
const protocolVersion = 2

// maxFrame bounds one frame. Rows come in batches far below it; one row is
// bounded by the guard's row cap (64 MB by default).
const maxFrame = 1 << 30

// Row batches are sent when they reach batchBytes of values or batchRows rows.
const (
	batchBytes = 256 << 10
	batchRows  = 2048
)

// Operations of a request.
const (
	opOpen     = "open"
	opSchema   = "schema"
	opValidate = "validate"
	opRun      = "run"
	opExplain  = "explain"
	opStream   = "stream"
)

// OpenArgs say which database a worker opens and how it is bounded: what
// the worker's OpenFunc is given.
type OpenArgs struct {
	// Path is the user's file, as shown; "" opens the bundled demo.
	Path string
	// File is the file to read, opened once by the parent and inherited
	// (or, where descriptors cannot be inherited, opened by path in the
	// worker and checked to be the parent's file in the same state): the
	// user's file, or the private snapshot the parent made of it. nil for
	// the demo. The worker reads it, never the path.
	File *os.File
	// Snapshot says File is a private snapshot (a file with pending -wal
	// changes), which the parent made and owns.
	Snapshot bool
	// MaxMemory is the worker's memory limit at start; each call then
	// sets its own share (SetMemory).
	MaxMemory int64
	// SkipCheck skips the integrity check on open: a worker restarted after
	// a kill opens the file its predecessor checked, which the parent saw
	// unchanged (files.FileID).
	SkipCheck bool
}

// openWire is OpenArgs as sent to the worker: the file as an inherited
// descriptor (Inherited) or, where none can be, its path and the identity
// it must have.
type openWire struct {
	Path      string
	Inherited bool
	ReadPath  string
	ReadID    files.FileID
	Snapshot  bool
	MaxMemory int64
	SkipCheck bool
}

// inheritedFD is the descriptor number of the file a worker inherits: the
// first of exec.Cmd.ExtraFiles.
const inheritedFD = 3

// request is one call from the parent.
type request struct {
	ID     uint64
	Op     string
	SQL    string
	Open   openWire
	Run    engine.RunOptions
	Stream engine.StreamOptions
	// Skip names schema steps not to run (they overran in a killed worker).
	Skip []string
	// Memory is the call's share of the memory ceiling (Budget): the
	// worker's limits while it runs; 0 for the open (Open.MaxMemory).
	Memory int64
}

// openReply describes the database a worker opened.
type openReply struct {
	Name, Path, Dialect string
	Warnings            []string
}

// resultMeta is engine.Result without its rows, which come in row frames.
type resultMeta struct {
	Query, ExecutedSQL string
	Columns            []engine.Column
	Truncated          bool
	Elapsed            time.Duration
	TablesUsed         []string
	Warnings           []string
	ColumnsRead        []string
}

// reply is a worker's answer to one request.
type reply struct {
	ID     uint64
	Err    *wireError
	Open   *openReply
	Schema *engine.Schema
	Valid  *engine.Validation
	Result *resultMeta
	Hints  []string
	Info   *engine.StreamInfo
	// SHA is the demo's sha256, in the reply to open.
	SHA string
}

// step announces a bounded step of the worker's work.
type step struct {
	ID     uint64
	Name   string
	Budget time.Duration
}

// wireError carries an *engine.Error across the process boundary: its
// message and hint as text and in parts (words.Sentence crosses gob part
// for part), so that the parent's error is said by each face as the
// worker's was; Cause restores the context errors that callers test with
// errors.Is.
type wireError struct {
	Code, Message, Hint, Query string
	MessageWords, HintWords    words.Sentence
	Position                   int
	Cause                      string // "canceled", "deadline" or ""
}

func toWire(err error) *wireError {
	if err == nil {
		return nil
	}
	e := engine.AsError(err)
	w := &wireError{Code: e.Code, Message: e.Message, Hint: e.Hint, Query: e.Query, Position: e.Position,
		MessageWords: e.MessageWords, HintWords: e.HintWords}
	switch {
	case errors.Is(err, context.Canceled):
		w.Cause = "canceled"
	case errors.Is(err, context.DeadlineExceeded):
		w.Cause = "deadline"
	}
	return w
}

func (w *wireError) toError() *engine.Error {
	e := &engine.Error{Code: w.Code, Message: w.Message, Hint: w.Hint, Query: w.Query, Position: w.Position,
		MessageWords: w.MessageWords, HintWords: w.HintWords}
	switch w.Cause {
	case "canceled":
		e.Err = context.Canceled
	case "deadline":
		e.Err = context.DeadlineExceeded
	}
	return e
}

// frameWriter writes frames; it is safe for use by several goroutines.
type frameWriter struct {
	mu  sync.Mutex
	w   *bufio.Writer
	hdr [5]byte
}

func newFrameWriter(w io.Writer) *frameWriter {
	return &frameWriter{w: bufio.NewWriterSize(w, 64<<10)}
}

// write sends one frame, its payload in parts (written one after the
// other, not copied together), and flushes it.
func (fw *frameWriter) write(typ byte, parts ...[]byte) error {
	fw.mu.Lock()
	defer fw.mu.Unlock()
	n := 1
	for _, p := range parts {
		n += len(p)
	}
	binary.BigEndian.PutUint32(fw.hdr[:4], uint32(n))
	fw.hdr[4] = typ
	if _, err := fw.w.Write(fw.hdr[:]); err != nil {
		return err
	}
	for _, p := range parts {
		if _, err := fw.w.Write(p); err != nil {
			return err
		}
	}
	return fw.w.Flush()
}

// writeGob sends v gob-encoded in one frame.
func (fw *frameWriter) writeGob(typ byte, v any) error {
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(v); err != nil {
		return fmt.Errorf("encode %c frame: %w", typ, err)
	}
	return fw.write(typ, b.Bytes())
}

// frame is one frame read.
type frame struct {
	typ     byte
	payload []byte
}

// readFrame reads the next frame.
func readFrame(r *bufio.Reader) (frame, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return frame{}, err
	}
	n := binary.BigEndian.Uint32(hdr[:])
	if n == 0 || n > maxFrame {
		return frame{}, fmt.Errorf("bad frame length %d", n)
	}
	buf := make([]byte, n)
	if _, err := io.ReadFull(r, buf); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return frame{}, err
	}
	return frame{typ: buf[0], payload: buf[1:]}, nil
}

func decodeGob(f frame, v any) error {
	if err := gob.NewDecoder(bytes.NewReader(f.payload)).Decode(v); err != nil {
		return fmt.Errorf("decode %c frame: %w", f.typ, err)
	}
	return nil
}

// Value tags of the rows encoding.
const (
	tagNull  = 0
	tagInt   = 1
	tagFloat = 2
	tagText  = 3
	tagBlob  = 4
)

// rowBatch accumulates rows in the rows encoding: the request id, the
// number of columns and of rows, then each value as a tag and its bytes
// (integers as zig-zag varints, floats as 8 bytes, text and blobs with a
// varint length).
type rowBatch struct {
	id   uint64
	cols int
	rows int
	buf  []byte
}

func (b *rowBatch) reset(id uint64, cols int) {
	b.id, b.cols, b.rows = id, cols, 0
	b.buf = b.buf[:0]
}

// add appends one row (its values are copied into the batch).
func (b *rowBatch) add(row []engine.Value) {
	for _, v := range row {
		switch x := v.(type) {
		case nil:
			b.buf = append(b.buf, tagNull)
		case int64:
			b.buf = append(b.buf, tagInt)
			b.buf = binary.AppendVarint(b.buf, x)
		case float64:
			b.buf = append(b.buf, tagFloat)
			b.buf = binary.BigEndian.AppendUint64(b.buf, math.Float64bits(x))
		case string:
			b.buf = append(b.buf, tagText)
			b.buf = binary.AppendUvarint(b.buf, uint64(len(x)))
			b.buf = append(b.buf, x...)
		case []byte:
			b.buf = append(b.buf, tagBlob)
			b.buf = binary.AppendUvarint(b.buf, uint64(len(x)))
			b.buf = append(b.buf, x...)
		default:
			s := fmt.Sprint(x)
			b.buf = append(b.buf, tagText)
			b.buf = binary.AppendUvarint(b.buf, uint64(len(s)))
			b.buf = append(b.buf, s...)
		}
	}
	b.rows++
}

func (b *rowBatch) full() bool { return len(b.buf) >= batchBytes || b.rows >= batchRows }

// payload is the frame's payload: a header, then the values (the batch's
// own buffer, not a copy: a row of 10 MB values is not copied once more).
func (b *rowBatch) payload() (hdr, values []byte) {
	hdr = binary.AppendUvarint(nil, b.id)
	hdr = binary.AppendUvarint(hdr, uint64(b.cols))
	hdr = binary.AppendUvarint(hdr, uint64(b.rows))
	return hdr, b.buf
}

func (b *rowBatch) payloadParts() [][]byte {
	hdr, values := b.payload()
	return [][]byte{hdr, values}
}

// decodeRows decodes a row frame: the request id and the rows, each a fresh
// slice of values that the caller may keep.
func decodeRows(p []byte) (id uint64, rows [][]engine.Value, err error) {
	bad := errors.New("bad row frame")
	id, n := binary.Uvarint(p)
	if n <= 0 {
		return 0, nil, bad
	}
	p = p[n:]
	cols, n := binary.Uvarint(p)
	if n <= 0 {
		return 0, nil, bad
	}
	p = p[n:]
	count, n := binary.Uvarint(p)
	if n <= 0 || cols > 1<<16 || count > uint64(len(p)) {
		return 0, nil, bad
	}
	p = p[n:]
	rows = make([][]engine.Value, count)
	vals := make([]engine.Value, int(count)*int(cols))
	for r := range rows {
		row := vals[r*int(cols) : (r+1)*int(cols) : (r+1)*int(cols)]
		for c := range row {
			if len(p) == 0 {
				return 0, nil, bad
			}
			tag := p[0]
			p = p[1:]
			switch tag {
			case tagNull:
				row[c] = nil
			case tagInt:
				x, n := binary.Varint(p)
				if n <= 0 {
					return 0, nil, bad
				}
				row[c], p = x, p[n:]
			case tagFloat:
				if len(p) < 8 {
					return 0, nil, bad
				}
				row[c], p = math.Float64frombits(binary.BigEndian.Uint64(p)), p[8:]
			case tagText, tagBlob:
				l, n := binary.Uvarint(p)
				if n <= 0 || l > uint64(len(p)-n) {
					return 0, nil, bad
				}
				p = p[n:]
				if tag == tagText {
					row[c] = string(p[:l])
				} else {
					row[c] = append([]byte{}, p[:l]...)
				}
				p = p[l:]
			default:
				return 0, nil, bad
			}
		}
		rows[r] = row
	}
	return id, rows, nil
}
