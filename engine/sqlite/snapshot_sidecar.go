package sqlite

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"os"

	"querent/engine"
)

// What SQLite itself would take from a -wal or a -journal, read by the rules
// of https://www.sqlite.org/fileformat2.html, so that a snapshot copies that
// and nothing more: a sparse or hostile sidecar must not turn into gigabytes
// of copy.

const (
	walHeaderSize      = 32
	walFrameHeaderSize = 24
	walMagic           = 0x377f0682 // | 1: checksums over big-endian words
	walVersion         = 3007000
)

// walChecksum continues SQLite's WAL checksum (s0, s1) over b, whose length
// is a multiple of 8, reading 32-bit words in the byte order the WAL header
// chose. It is cumulative: each frame's checksum covers the header and
// every frame before it, so the first frame that does not match ends the log.
func walChecksum(b []byte, bigEndian bool, s0, s1 uint32) (uint32, uint32) {
	if bigEndian {
		for i := 0; i+8 <= len(b); i += 8 {
			s0 += binary.BigEndian.Uint32(b[i:]) + s1
			s1 += binary.BigEndian.Uint32(b[i+4:]) + s0
		}
		return s0, s1
	}
	for i := 0; i+8 <= len(b); i += 8 {
		s0 += binary.LittleEndian.Uint32(b[i:]) + s1
		s1 += binary.LittleEndian.Uint32(b[i+4:]) + s0
	}
	return s0, s1
}

// walScan is what scanWAL found in a write-ahead log.
type walScan struct {
	headerOK  bool  // the header is one SQLite accepts (else SQLite ignores the file)
	pageSize  int64 // from the header
	frames    int   // valid frames in a row from the start, committed or not
	committed int   // of those, up to and including the last commit frame
	end       int64 // header plus committed frames: what SQLite would replay; 0 without a valid header
}

// parseWALHeader checks a WAL header as SQLite's recovery does (magic, page
// size, checksum, format version) and returns the checksum order and the
// running checksum that the first frame continues.
func parseWALHeader(h []byte) (pageSize int64, bigEndian bool, s0, s1 uint32, ok bool) {
	if len(h) < walHeaderSize {
		return 0, false, 0, 0, false
	}
	be := binary.BigEndian
	magic := be.Uint32(h[0:])
	pageSize = int64(be.Uint32(h[8:]))
	if magic&^1 != walMagic || pageSize < 512 || pageSize > 65536 || pageSize&(pageSize-1) != 0 {
		return 0, false, 0, 0, false
	}
	bigEndian = magic&1 == 1
	s0, s1 = walChecksum(h[:24], bigEndian, 0, 0)
	if s0 != be.Uint32(h[24:]) || s1 != be.Uint32(h[28:]) {
		return 0, false, 0, 0, false
	}
	// SQLite refuses to open a database whose WAL has another version; no
	// SQLite ever wrote one, so Querent ignores such a file instead.
	if be.Uint32(h[4:]) != walVersion {
		return 0, false, 0, 0, false
	}
	return pageSize, bigEndian, s0, s1, true
}

// scanWAL reads a write-ahead log from r and keeps the frames SQLite's
// recovery would keep: each frame's salts match the header's, its page
// number is not 0 and its cumulative checksum matches; the first frame that
// fails ends the log, and frames after the last commit frame are a
// transaction that never committed. A hole reads as zeros and so fails.
//
// When out is not nil, the header and each valid frame are written to it at
// their offsets, but never past limit (the end of the committed frames as a
// first pass found them), so an uncommitted tail is not copied; the caller
// cuts the copy at the returned end, which is smaller than limit only if
// the log changed between the passes.
func scanWAL(ctx context.Context, r io.Reader, limit int64, out io.WriterAt) (walScan, error) {
	var s walScan
	hdr := make([]byte, walHeaderSize)
	if _, err := io.ReadFull(r, hdr); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return s, nil
		}
		return s, err
	}
	pageSize, bigEndian, s0, s1, ok := parseWALHeader(hdr)
	if !ok {
		return s, nil
	}
	s.headerOK, s.pageSize = true, pageSize
	s.end = walHeaderSize
	if out != nil {
		if _, err := out.WriteAt(hdr, 0); err != nil {
			return s, err
		}
	}
	frame := make([]byte, walFrameHeaderSize+pageSize)
	off := int64(walHeaderSize)
	be := binary.BigEndian
	for limit < 0 || off+int64(len(frame)) <= limit {
		if err := ctx.Err(); err != nil {
			return s, engine.AsError(err)
		}
		if _, err := io.ReadFull(r, frame); err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				break
			}
			return s, err
		}
		if be.Uint32(frame[0:]) == 0 || string(frame[8:16]) != string(hdr[16:24]) {
			break
		}
		s0, s1 = walChecksum(frame[:8], bigEndian, s0, s1)
		s0, s1 = walChecksum(frame[walFrameHeaderSize:], bigEndian, s0, s1)
		if s0 != be.Uint32(frame[16:]) || s1 != be.Uint32(frame[20:]) {
			break
		}
		if out != nil {
			if _, err := out.WriteAt(frame, off); err != nil {
				return s, err
			}
		}
		off += int64(len(frame))
		s.frames++
		if be.Uint32(frame[4:]) != 0 { // the database size after a commit
			s.committed = s.frames
			s.end = off
		}
	}
	if s.committed == 0 {
		s.end = walHeaderSize
	}
	return s, nil
}

// journalMagic starts every rollback journal header SQLite writes.
var journalMagic = []byte{0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7}

// journalBound returns how much of a rollback journal of the given length
// SQLite's rollback could use, and whether it would roll anything back.
// SQLite does nothing with a journal whose header lacks the magic (a
// committed journal in PERSIST mode is zeroed there). A hot journal holds at
// most one record (page number, page, checksum) per page the database had
// when the transaction began (the header's "initial size"; records past it
// are skipped), in segments that each start with a sector-sized header, and
// may end with a super-journal name; nothing past that is read. The main
// file's current size is no bound: a crash after an incremental vacuum
// truncated it still needs every record. The copy is sparse besides, so a
// journal with holes costs only the bytes it really has.
func journalBound(head []byte, size int64) (limit int64, hot bool) {
	if len(head) < 28 || string(head[:8]) != string(journalMagic) {
		return 0, false
	}
	be := binary.BigEndian
	pages := int64(be.Uint32(head[16:]))
	sector := int64(be.Uint32(head[20:]))
	pageSize := int64(be.Uint32(head[24:]))
	if pageSize < 512 || pageSize > 65536 || pageSize&(pageSize-1) != 0 ||
		sector < 32 || sector > 65536 || sector&(sector-1) != 0 {
		// SQLite reports such a journal as corruption: the header is
		// enough for the copy to fail the same way.
		return min(size, 512), true
	}
	const superName = 4 + 4096 + 4 + 4 + 8 // page number, name (SQLite caps paths at 4 KB), length, checksum, magic
	limit = sector + pages*(4+pageSize+4+sector) + sector + superName
	return min(size, limit), true
}

// readHead reads up to n bytes from the start of an open file.
func readHead(f *os.File, n int) ([]byte, error) {
	b := make([]byte, n)
	m, err := f.ReadAt(b, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return b[:m], nil
}
