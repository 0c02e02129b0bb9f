package files

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"querent/engine"
)

// FileID identifies one state of an open file: which file it is (device
// and inode, or the Windows volume and file index) and what changes when
// it is written (its size, modification and change times). It is read
// from the descriptor (IDOf), so it names the file that was opened,
// whatever the path names since.
type FileID struct {
	Dev, Ino        uint64
	Size            int64
	ModNs, ChangeNs int64 // ChangeNs is 0 where the system has no change time
}

// IDOf reads the identity of the open file f.
func IDOf(f *os.File) (FileID, error) { return idOf(f) }

// SameFile reports whether a and b are the same file (device and inode),
// in whatever state.
func (a FileID) SameFile(b FileID) bool { return a.Dev == b.Dev && a.Ino == b.Ino }

// Changed says in words how the content of state b may differ from a, or
// "" when it cannot have: another file, another size, another modification
// time. The change time is left out: renaming another file over the path
// (which unlinks this one), a chmod or a new hard link set it without
// touching the content.
func (a FileID) Changed(b FileID) string {
	switch {
	case !a.SameFile(b):
		return "it is another file now"
	case a.Size != b.Size:
		return fmt.Sprintf("its size went from %s to %s bytes", engine.GroupThousands(a.Size), engine.GroupThousands(b.Size))
	case a.ModNs != b.ModNs:
		return "it was written to"
	}
	return ""
}

// QuickPrefix starts a quick identity (Fingerprint), so that it is never
// taken for a file's sha256.
const QuickPrefix = "quick:"

// Sampling of Fingerprint: the first and last sampleEdge bytes, and
// sampleBlocks blocks of sampleBlock bytes spread evenly between them, read
// within sampleBudget.
const (
	sampleEdge   = 64 << 10
	sampleBlocks = 64
	sampleBlock  = 4 << 10
	sampleBudget = 250 * time.Millisecond
)

// Fingerprint is the quick identity of the state id of the open file f:
// QuickPrefix and the hex sha256 of the identity and of at most 384 KB of
// the file (its first and last 64 KB, and 64 blocks of 4 KB spread
// through it), read with ReadAt within 250 ms. It costs the same for a
// file of 1 MB or 200 GB, where reading a file whole for its sha256 takes
// minutes; it names the file and its state, not its content, so a copy of
// the file has another one.
func Fingerprint(f *os.File, id FileID) string {
	h := sha256.New()
	var b [8]byte
	for _, v := range []uint64{id.Dev, id.Ino, uint64(id.Size), uint64(id.ModNs), uint64(id.ChangeNs)} {
		binary.BigEndian.PutUint64(b[:], v)
		h.Write(b[:])
	}
	deadline := time.Now().Add(sampleBudget)
	buf := make([]byte, sampleEdge)
	sample := func(off, n int64) bool {
		if off < 0 {
			n, off = n+off, 0
		}
		n = min(n, id.Size-off)
		if n <= 0 || time.Now().After(deadline) {
			return n <= 0
		}
		m, err := f.ReadAt(buf[:n], off)
		h.Write(buf[:m])
		return err == nil || errors.Is(err, io.EOF)
	}
	ok := sample(0, sampleEdge)
	if id.Size > 2*sampleEdge {
		step := (id.Size - 2*sampleEdge) / (sampleBlocks + 1)
		for i := int64(1); ok && i <= sampleBlocks; i++ {
			off := sampleEdge + i*step
			ok = sample(off-off%sampleBlock, sampleBlock)
		}
	}
	if ok && id.Size > sampleEdge {
		ok = sample(max(id.Size-sampleEdge, sampleEdge), sampleEdge)
	}
	if !ok {
		// Unread samples (a slow disk, a read error): what was read, marked,
		// still names this state of this file.
		h.Write([]byte("partial"))
	}
	return QuickPrefix + hex.EncodeToString(h.Sum(nil))
}

// HashFile returns the hex sha256 of the first size bytes of f, read with
// ReadAt (the descriptor's offset is left alone), checking ctx between
// chunks; done, when set, is told how many bytes are hashed so far.
func HashFile(ctx context.Context, f *os.File, size int64, done func(int64)) (string, error) {
	h := sha256.New()
	buf := make([]byte, 1<<20)
	var off int64
	for off < size {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		n, err := f.ReadAt(buf[:min(int64(len(buf)), size-off)], off)
		h.Write(buf[:n])
		off += int64(n)
		if done != nil {
			done(off)
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
