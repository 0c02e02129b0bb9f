package worker

import (
	"context"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"querent/engine/files"
)

// The identity of the database file, for the history and exports'
// provenance (engine.Fingerprinter). Reading a file whole for its sha256
// is unbounded work (a sparse 50 GB tail took 37–87 s, and it held the
// database's call lock, so a 2 s query took a minute and an MCP server
// answered nothing else meanwhile). So the parent, which holds the file,
// knows at once its quick identity (files.Fingerprint: the descriptor's
// identity and 384 KB of sampled pages, whatever the size) and computes
// the sha256 in the background, from the same descriptor, cancelled when
// the database is closed and never under a call's lock; files up to
// hashAtOpen are hashed at open (about as long as one query), so that
// their history always has the sha256. A HashStore remembers sha256s by
// quick identity across runs.

const (
	// hashAtOpen is the size up to which the sha256 is computed at open.
	hashAtOpen = 16 << 20
	// hashWait is the longest SHA256 waits for a hash that is nearly done.
	hashWait = 250 * time.Millisecond
)

// HashStore remembers the sha256 of files by their quick identity
// (files.Fingerprint), across processes: a short command on a large file
// ends before its hash does, and records the quick identity; a later
// process that knows the sha256 can fill it in.
type HashStore interface {
	// Lookup returns the sha256 remembered for a quick identity, or "".
	Lookup(quick string) string
	// Store remembers it; it is called from the hashing goroutine.
	Store(quick, sha256 string)
}

// identity is a database file's quick identity and its sha256 once known.
type identity struct {
	quick string
	size  int64
	store HashStore

	mu    sync.Mutex
	full  string
	err   error
	done  chan struct{} // closed when the hash ended (or was never started)
	start time.Time
	read  atomic.Int64 // bytes hashed so far
	stop  context.CancelFunc
}

// newIdentity identifies the open file f; ctx bounds the hash at open.
func newIdentity(ctx context.Context, f *os.File, id files.FileID, store HashStore) *identity {
	d := &identity{quick: files.Fingerprint(f, id), size: id.Size, store: store, done: make(chan struct{})}
	if store != nil {
		if sum := store.Lookup(d.quick); sum != "" {
			d.full = sum
			close(d.done)
			// Entries that earlier runs recorded under the quick identity.
			go store.Store(d.quick, sum)
			return d
		}
	}
	hctx, stop := context.WithCancel(context.WithoutCancel(ctx))
	d.stop, d.start = stop, time.Now()
	if id.Size <= hashAtOpen {
		d.hash(ctx, f)
		return d
	}
	go d.hash(hctx, f)
	return d
}

func (d *identity) hash(ctx context.Context, f *os.File) {
	defer close(d.done)
	sum, err := files.HashFile(ctx, f, d.size, func(n int64) { d.read.Store(n) })
	d.mu.Lock()
	d.full, d.err = sum, err
	d.mu.Unlock()
	if err == nil && d.store != nil {
		d.store.Store(d.quick, sum)
	}
}

// sha256 is the file's sha256 when known, else its quick identity. It
// waits for a hash that should end within hashWait (a file of some tens
// of megabytes hashed in the background), never longer, nor past ctx.
func (d *identity) sha256(ctx context.Context) string {
	select {
	case <-d.done:
	default:
		if left := d.eta(); left > 0 && left <= hashWait {
			t := time.NewTimer(hashWait)
			defer t.Stop()
			select {
			case <-d.done:
			case <-t.C:
			case <-ctx.Done():
			}
		}
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.full != "" {
		return d.full
	}
	return d.quick
}

// eta estimates how long the running hash has left (0: unknown).
func (d *identity) eta() time.Duration {
	n, el := d.read.Load(), time.Since(d.start)
	if n <= 0 || el <= 0 {
		return 0
	}
	return time.Duration(float64(d.size-n) / float64(n) * float64(el))
}

// close cancels a running hash and waits for it to stop.
func (d *identity) close() {
	if d.stop != nil {
		d.stop()
	}
	<-d.done
}
