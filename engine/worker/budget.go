package worker

import (
	"context"
	"os"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"querent/engine"
)

// Budget is one memory ceiling for the whole of Querent: the parent
// process, every query worker of every database, and the work the parent
// does itself (an import). Before, the ceiling (QUERENT_MAX_MEMORY) held
// for each statement alone: an export and its worker took 1.5 GB under a
// 1 GB ceiling, 4 databases under 400 MB 0.8 GB, 10 databases 6.8 GB.
//
// How it is shared out:
//   - the parent keeps a quarter (parentShare): its Go heap is held to it
//     by a soft limit (LimitParent), and what it holds of a query's data
//     is bounded by construction (the frames read ahead of the caller, an
//     export's pipe, a result's cap);
//   - the rest is the workers': each worker process costs workerBase
//     while it lives, idle or busy, and the calls running in workers split
//     what is left equally (a share, never below minShare); work that the
//     parent does with a grant of its own (Grant, an import) comes off the
//     top. A call's share sets its worker's limits (SQLite's hard heap
//     limit, Go's memory limit, the result caps) and the resident size at
//     which the parent kills it; when calls start or end, the shares of
//     the running ones are sent to their workers at once.
//   - so that the shares never grow too thin, at most maxWorkers worker
//     processes live at once, for all the databases together: a call that
//     finds none free takes an idle worker of another database (stopped to
//     free its place), or waits, within its own deadline, for one to come
//     free. A database can always get a worker of its own: no database
//     holds more than its part (maxWorkers less one per other database).
//   - and whatever the shares do not foresee, a last watch sees: while
//     calls run, the resident sizes of the parent and of every worker are
//     added up, and past the ceiling the running worker that is largest
//     is killed (too_big).
//
// A Budget is safe for use by several goroutines. The zero value is not
// usable: NewBudget.
type Budget struct {
	total int64

	mu       sync.Mutex
	live     int                 // worker processes holding a place
	running  map[*share]struct{} // calls running in workers
	fixed    int64               // grants of work in the parent
	idle     []idleWorker        // idle workers, oldest first
	clients  map[*Client]int     // open clients and their live workers
	changed  chan struct{}       // closed and replaced on every change
	reaper   *time.Timer         // stops idle workers kept past idleKeep
	treeRSS  atomic.Int64        // the last total of resident sizes
	treeAt   atomic.Int64        // when it was read (unix nanoseconds)
	parentOf func() int64        // the parent's resident size
	sizes    map[*share]int64    // each running call's worker size, last read
}

// Bounds of the shares.
const (
	// parentShare is the part of the ceiling kept for the parent.
	parentShare = 4 // a quarter
	// workerBase is what a worker process costs while it lives (measured:
	// 10 MB resident when idle).
	workerBase = 16 << 20
	// minShare is the least memory a running call gets, its worker's base
	// included: the shares are never split thinner than this.
	minShare = 48 << 20
	// idleKeep is how long a database keeps a second idle worker: a burst
	// of calls grows the pool, a quiet spell shrinks it back to one.
	idleKeep = 10 * time.Second
	// treeEvery is how often the total of resident sizes is read.
	treeEvery = 20 * time.Millisecond
)

// idleWorker is a worker waiting for a call.
type idleWorker struct {
	c     *Client
	p     *process
	since time.Time
}

// share is the memory of one call running in a worker.
type share struct {
	c     *Client
	p     *process
	limit atomic.Int64
	sent  int64 // the last limit sent to the worker (under Budget.mu)
}

// NewBudget returns a budget of total bytes for all of Querent (at least
// 2 × minShare).
func NewBudget(total int64) *Budget {
	total = max(total, 2*minShare)
	return &Budget{total: total, running: map[*share]struct{}{}, clients: map[*Client]int{},
		changed: make(chan struct{}), sizes: map[*share]int64{}, parentOf: func() int64 { return residentBytes(os.Getpid()) }}
}

// Total is the ceiling, in bytes.
func (b *Budget) Total() int64 { return b.total }

// workers is the memory of the workers: the ceiling less the parent's part.
func (b *Budget) workers() int64 { return b.total - b.total/parentShare }

// maxWorkers is the most worker processes that live at once.
func (b *Budget) maxWorkers() int { return max(2, int(b.workers()/minShare)) }

// LimitParent sets this process's Go memory limit to the parent's part of
// the ceiling and the grants it holds (Grant), so that its collector works
// harder before its heap passes them. It is meant for the process that
// owns the budget (the command line, the app).
func (b *Budget) LimitParent() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.limitParentLocked()
}

func (b *Budget) limitParentLocked() {
	debug.SetMemoryLimit(b.total/parentShare + b.fixed)
}

// Grant takes a share of the ceiling for work done in this process (an
// import): as a call starting in a worker would get, at most want (0: no
// cap), and never less than minShare. It waits, within ctx, while the
// workers' calls leave less than that. release gives it back.
func (b *Budget) Grant(ctx context.Context, want int64) (n int64, release func(), err error) {
	for {
		b.mu.Lock()
		avail := b.workers() - b.fixed - workerBase*int64(b.live)
		n = avail / int64(len(b.running)+1)
		if want > 0 {
			n = min(n, want)
		}
		if n >= minShare || len(b.running) == 0 && b.fixed == 0 {
			n = max(n, minShare)
			b.fixed += n
			b.limitParentLocked()
			b.rebalanceLocked()
			b.mu.Unlock()
			b.sendLimits()
			var once sync.Once
			return n, func() {
				once.Do(func() {
					b.mu.Lock()
					b.fixed -= n
					b.limitParentLocked()
					b.rebalanceLocked()
					b.notifyLocked()
					b.mu.Unlock()
					b.sendLimits()
				})
			}, nil
		}
		ch := b.changed
		b.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return 0, nil, engine.AsError(ctx.Err())
		}
	}
}

// notifyLocked wakes everyone waiting for a change.
func (b *Budget) notifyLocked() {
	close(b.changed)
	b.changed = make(chan struct{})
}

// register counts an open client (so that every database keeps a place).
func (b *Budget) register(c *Client) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.clients[c] = 0
}

// forget stops the idle workers of a closed client and forgets it; its
// busy workers are the client's to kill.
func (b *Budget) forget(c *Client) {
	b.mu.Lock()
	var stop []*process
	kept := b.idle[:0]
	for _, w := range b.idle {
		if w.c == c {
			stop = append(stop, w.p)
			continue
		}
		kept = append(kept, w)
	}
	b.idle = kept
	delete(b.clients, c)
	b.mu.Unlock()
	for _, p := range stop {
		b.gone(c, p)
		p.stop()
	}
}

// errExpired says a call's deadline passed while it waited for a worker.
var errExpired = engineExpired{}

type engineExpired struct{}

func (engineExpired) Error() string { return "expired" }

// take gives c a worker for a call: one of its idle ones, or a place for
// a new one (spawn true: the caller starts it, or calls gone). It waits
// while every place is taken by busy workers, until ctx ends or the
// deadline (if set) passes.
func (b *Budget) take(ctx context.Context, deadline time.Time, c *Client) (p *process, spawn bool, err error) {
	var expire <-chan time.Time
	if !deadline.IsZero() {
		t := time.NewTimer(time.Until(deadline))
		defer t.Stop()
		expire = t.C
	}
	for {
		b.mu.Lock()
		if c.isClosed() {
			b.mu.Unlock()
			return nil, false, engine.Errorf(engine.CodeInternal, "the database was closed")
		}
		// The newest idle worker of this client: its caches are warmest.
		for i := len(b.idle) - 1; i >= 0; i-- {
			if w := b.idle[i]; w.c == c {
				b.idle = append(b.idle[:i], b.idle[i+1:]...)
				if w.p.isDead() {
					b.releaseLocked(c, w.p)
					continue
				}
				b.mu.Unlock()
				return w.p, false, nil
			}
		}
		mine, others := b.clients[c], len(b.clients)-1
		if mine < max(1, b.maxWorkers()-others) {
			if b.live < b.maxWorkers() {
				b.live++
				b.clients[c]++
				b.mu.Unlock()
				return nil, true, nil
			}
			// Every place is taken: the oldest idle worker of another
			// database gives its place up.
			for i, w := range b.idle {
				if w.c != c {
					b.idle = append(b.idle[:i], b.idle[i+1:]...)
					b.clients[w.c]--
					b.clients[c]++
					w.p.placeGiven.Store(true)
					b.mu.Unlock()
					w.p.stop()
					return nil, true, nil
				}
			}
		}
		ch := b.changed
		b.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return nil, false, ctx.Err()
		case <-expire:
			return nil, false, errExpired
		}
	}
}

// put makes a worker that finished its call idle.
func (b *Budget) put(c *Client, p *process) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, open := b.clients[c]; !open || p.isDead() {
		b.releaseLocked(c, p)
		b.notifyLocked()
		if open {
			return
		}
		go p.stop()
		return
	}
	b.idle = append(b.idle, idleWorker{c: c, p: p, since: time.Now()})
	b.rebalanceLocked()
	b.notifyLocked()
	n := 0
	for _, w := range b.idle {
		if w.c == c {
			n++
		}
	}
	if n > 1 && b.reaper == nil {
		b.reaper = time.AfterFunc(idleKeep, b.reap)
	}
}

// reap stops the idle workers kept past idleKeep, but one per database.
func (b *Budget) reap() {
	b.mu.Lock()
	b.reaper = nil
	var stop []idleWorker
	last := map[*Client]int{} // each client's newest idle worker
	for i, w := range b.idle {
		last[w.c] = i
	}
	kept := b.idle[:0]
	again := false
	for i, w := range b.idle {
		switch {
		case last[w.c] == i:
			kept = append(kept, w)
		case time.Since(w.since) >= idleKeep:
			stop = append(stop, w)
		default:
			kept = append(kept, w)
			again = true
		}
	}
	b.idle = kept
	for _, w := range stop {
		b.releaseLocked(w.c, w.p)
	}
	if again {
		b.reaper = time.AfterFunc(idleKeep, b.reap)
	}
	b.rebalanceLocked()
	b.notifyLocked()
	b.mu.Unlock()
	b.sendLimits()
	for _, w := range stop {
		w.p.stop()
	}
}

// gone gives up the place of a worker that was killed, died or stopped.
func (b *Budget) gone(c *Client, p *process) {
	b.mu.Lock()
	b.releaseLocked(c, p)
	b.rebalanceLocked()
	b.notifyLocked()
	b.mu.Unlock()
	b.sendLimits()
}

func (b *Budget) releaseLocked(c *Client, p *process) {
	if p.placeGiven.Swap(true) {
		return
	}
	b.live--
	if _, ok := b.clients[c]; ok {
		b.clients[c]--
	}
}

// begin counts a call that starts on worker p, and returns its share.
func (b *Budget) begin(c *Client, p *process) *share {
	s := &share{c: c, p: p}
	b.mu.Lock()
	b.running[s] = struct{}{}
	b.rebalanceLocked()
	s.sent = s.limit.Load() // the request carries it
	b.mu.Unlock()
	b.sendLimits()
	return s
}

// end counts a call that ended.
func (b *Budget) end(s *share) {
	b.mu.Lock()
	delete(b.running, s)
	delete(b.sizes, s)
	b.rebalanceLocked()
	b.notifyLocked()
	b.mu.Unlock()
	b.sendLimits()
}

// rebalanceLocked sets the share of every running call: what the workers
// have, less the grants and every living worker's base, split equally
// among the running calls (their own bases given back), within each
// client's cap, never below minShare.
func (b *Budget) rebalanceLocked() {
	if len(b.running) == 0 {
		return
	}
	idle := int64(b.live - len(b.running))
	each := (b.workers() - b.fixed - workerBase*max(idle, 0)) / int64(len(b.running))
	each = max(each, minShare)
	for s := range b.running {
		n := each
		if s.c.cfg.MaxMemory > 0 {
			n = min(n, s.c.cfg.MaxMemory)
		}
		s.limit.Store(n)
	}
}

// sendLimits tells the workers whose share changed (outside the lock:
// a write to a worker's input may wait for it to read).
func (b *Budget) sendLimits() {
	type send struct {
		p     *process
		limit int64
	}
	var out []send
	b.mu.Lock()
	for s := range b.running {
		if l := s.limit.Load(); l != s.sent {
			s.sent = l
			out = append(out, send{s.p, l})
		}
	}
	b.mu.Unlock()
	for _, o := range out {
		o.p.setLimit(o.limit)
	}
}

// overTree reports whether Querent's processes together are past the
// ceiling and s's worker is the largest running one (rss its size now):
// that worker is the one to stop. The total is read at most every
// treeEvery, by whichever call asks.
func (b *Budget) overTree(s *share, rss int64) bool {
	b.mu.Lock()
	b.sizes[s] = rss
	now := time.Now().UnixNano()
	stale := now-b.treeAt.Load() >= int64(treeEvery)
	var procs []*process
	if stale {
		b.treeAt.Store(now)
		for r := range b.running {
			procs = append(procs, r.p)
		}
		for _, w := range b.idle {
			procs = append(procs, w.p)
		}
	}
	b.mu.Unlock()
	if stale {
		total := b.parentOf()
		for _, p := range procs {
			total += rssOf(p)
		}
		b.treeRSS.Store(total)
	}
	if b.treeRSS.Load() <= b.total {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for r, n := range b.sizes {
		if r != s && n > rss {
			return false
		}
	}
	// This one is stopped: the next look reads the sizes afresh.
	b.treeAt.Store(0)
	b.treeRSS.Store(0)
	return true
}
