package ingest

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"sync"

	"querent/engine"
)

// Spill files: per row, its number and its cell count as uvarints, then
// per cell a uvarint length and the cell's bytes.

type spillFile struct {
	path string
	fh   *os.File
	tw   *tempWriter
	w    *bufio.Writer
	buf  []byte

	mu      sync.Mutex
	claimed bool
}

func newSpillFile(maxTemp int64) (*spillFile, error) {
	fh, err := os.CreateTemp("", spillPattern)
	if err != nil {
		return nil, err
	}
	tw := &tempWriter{f: fh, limit: maxTemp}
	s := &spillFile{path: fh.Name(), fh: fh, tw: tw, w: bufio.NewWriterSize(tw, 256<<10)}
	spills.Lock()
	spills.files[s.path] = s
	spills.Unlock()
	return s, nil
}

// errTempCeiling is a spill file's write refused at the temporary-space
// ceiling.
var errTempCeiling = errors.New("the ceiling on temporary files is reached")

// tempWriter writes a spill file within the temporary-space ceiling: it
// reserves room (a megabyte at a time) before the bytes reach the disk, so
// the file never passes the ceiling; remove gives the room back.
type tempWriter struct {
	f                 *os.File
	limit             int64
	reserved, written int64
}

func (w *tempWriter) Write(p []byte) (int, error) {
	if need := w.written + int64(len(p)) - w.reserved; need > 0 {
		step := max(need, 1<<20)
		if !reserveTemp(step, w.limit) {
			if step = need; !reserveTemp(step, w.limit) {
				return 0, errTempCeiling
			}
		}
		w.reserved += step
	}
	n, err := w.f.Write(p)
	w.written += int64(n)
	return n, err
}

func (s *spillFile) writeRow(num int, cells []string) error {
	b := binary.AppendUvarint(s.buf[:0], uint64(num))
	b = binary.AppendUvarint(b, uint64(len(cells)))
	for _, c := range cells {
		b = binary.AppendUvarint(b, uint64(len(c)))
		if len(b) > 4096 {
			if _, err := s.w.Write(b); err != nil {
				return err
			}
			b = b[:0]
		}
		if len(c) > 256 {
			if _, err := s.w.Write(b); err != nil {
				return err
			}
			b = b[:0]
			if _, err := s.w.WriteString(c); err != nil {
				return err
			}
			continue
		}
		b = append(b, c...)
	}
	s.buf = b
	_, err := s.w.Write(b)
	return err
}

// finish flushes and closes the file after the first pass.
func (s *spillFile) finish() error {
	if s == nil || s.fh == nil {
		return nil
	}
	err := s.w.Flush()
	if cerr := s.fh.Close(); err == nil {
		err = cerr
	}
	s.fh, s.w = nil, nil
	return err
}

// remove deletes the file and gives its room back (once), whatever its
// state.
func (s *spillFile) remove() {
	if s == nil {
		return
	}
	spills.Lock()
	_, live := spills.files[s.path]
	delete(spills.files, s.path)
	spills.Unlock()
	if !live {
		return
	}
	s.mu.Lock()
	if s.fh != nil {
		_ = s.fh.Close()
		s.fh, s.w = nil, nil
	}
	s.mu.Unlock()
	_ = os.Remove(s.path)
	releaseTemp(s.tw.reserved)
}

// replay streams the rows written in the first pass, converted; it
// removes the file when it returns.
func (s *spillFile) replay(ctx context.Context, n int64, keep []int,
	convs []*cellConv, yield func(row []engine.Value) error) error {
	if s == nil {
		if n == 0 {
			return nil
		}
		return engine.Errorf(engine.CodeInternal, "the rows of this sheet were not kept")
	}
	s.mu.Lock()
	claimed := s.claimed
	s.claimed = true
	s.mu.Unlock()
	if claimed {
		return engine.Errorf(engine.CodeInternal, "the rows of this sheet were already read (Rows can be called once)")
	}
	defer s.remove()
	fh, err := os.Open(s.path)
	if err != nil {
		return workbookError("cannot read a temporary file: %v", err).WithErr(err).
			WithHint("import the file again; do not clean the temporary folder while Querent runs")
	}
	defer fh.Close()
	r := bufio.NewReaderSize(fh, 256<<10)
	var cells []string
	var b []byte
	var chunk []engine.Value // rows are cut from chunks of 256 (chunkBytes)
	chunkUsed := 0
	last := -1
	for _, c := range keep {
		last = max(last, c)
	}
	corrupt := func(err error) error {
		return workbookError("a temporary file of the import was damaged: %v", err).WithErr(err).
			WithHint("import the file again")
	}
	for i := int64(0); i < n; i++ {
		if i%xlsxCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return engine.AsError(err)
			}
		}
		num, err := binary.ReadUvarint(r)
		if err != nil {
			return corrupt(err)
		}
		count, err := binary.ReadUvarint(r)
		if err != nil {
			return corrupt(err)
		}
		cells = cells[:0]
		for c := uint64(0); c < count; c++ {
			l, err := binary.ReadUvarint(r)
			if err != nil {
				return corrupt(err)
			}
			if int(c) > last {
				if _, err := r.Discard(int(l)); err != nil {
					return corrupt(err)
				}
				continue
			}
			if uint64(cap(b)) < l {
				b = make([]byte, l)
			}
			b = b[:l]
			if _, err := io.ReadFull(r, b); err != nil {
				return corrupt(err)
			}
			cells = append(cells, string(b))
		}
		if len(chunk) < len(keep) {
			chunk = make([]engine.Value, 256*len(keep))
		}
		row := chunk[:len(keep):len(keep)]
		chunk = chunk[len(keep):]
		for k, c := range keep {
			if c < len(cells) {
				v, ok := convs[k].convert(int64(num), cells[c])
				if !ok {
					v = cells[c] // not converted: kept as its text
				}
				row[k] = v
			}
		}
		if chunkUsed += rowValueBytes(row); chunkUsed > chunkBytes {
			chunk, chunkUsed = nil, 0 // the next row starts a new chunk
		}
		if err := yield(row); err != nil {
			return err
		}
	}
	return nil
}

// chunkBytes bounds the values of the rows cut from one chunk. The rows
// streamed to the import writer share chunks of 256 (one allocation for
// all their values), and a chunk lives as long as any of its rows: the
// values of all 256 with it. Past chunkBytes in one row, the next row
// starts a new chunk: 256 rows of 10 MB kept 2.5 GB alive.
const chunkBytes = 256 << 10

// rowValueBytes is the text and blob bytes of a row's values.
func rowValueBytes(row []engine.Value) int {
	n := 0
	for _, v := range row {
		switch x := v.(type) {
		case string:
			n += len(x)
		case []byte:
			n += len(x)
		}
	}
	return n
}
