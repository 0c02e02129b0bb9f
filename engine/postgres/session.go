package postgres

import (
	"context"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"querent/engine"
)

// noticeBox collects the notices of the connection while a statement is
// checked (the server's rewritten tree comes as a LOG notice). pgconn calls
// the handler on the goroutine that reads the connection, the one holding
// the DB's lock; the mutex keeps the race detector's view simple.
type noticeBox struct {
	mu      sync.Mutex
	on      bool
	notices []*pgconn.Notice
}

// maxNotices bounds what one statement's check keeps.
const maxNotices = 64

func (b *noticeBox) handle(_ *pgconn.PgConn, n *pgconn.Notice) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.on && len(b.notices) < maxNotices {
		b.notices = append(b.notices, n)
	}
}

// noticesOn starts (forgetting what was collected before) or stops
// collecting the connection's notices.
func (d *DB) noticesOn(on bool) {
	d.noticeBox.mu.Lock()
	if on && !d.noticeBox.on {
		d.noticeBox.notices = nil
	}
	d.noticeBox.on = on
	d.noticeBox.mu.Unlock()
}

// takeNotices returns the notices collected so far and forgets them.
func (d *DB) takeNotices() []*pgconn.Notice {
	d.noticeBox.mu.Lock()
	defer d.noticeBox.mu.Unlock()
	n := d.noticeBox.notices
	d.noticeBox.notices = nil
	return n
}

// abandonedBackend is a server process whose statement Querent stopped
// waiting for (a timeout, a cancel): PostgreSQL cannot interrupt every kind
// of work (its LIKE matcher checks for no interrupt; a hash of a huge value
// is one call), so such a statement may run on after Querent closed its
// connection. Querent starts no statement on the server until they are
// seen idle or gone.
type abandonedBackend struct {
	pid   uint32
	since time.Time
}

// abandonedByServer holds the abandoned server processes of this
// Querent per server (host:port): two databases of one server share the
// rule, since a runaway holds the server, not the database.
var abandonedByServer = struct {
	sync.Mutex
	m map[string][]abandonedBackend
}{m: map[string][]abandonedBackend{}}

// abandon remembers conn's server process.
func (d *DB) abandon(conn *pgconn.PgConn) {
	if conn == nil || conn.PID() == 0 {
		return
	}
	key := d.serverAddr()
	abandonedByServer.Lock()
	defer abandonedByServer.Unlock()
	for _, a := range abandonedByServer.m[key] {
		if a.pid == conn.PID() {
			return
		}
	}
	abandonedByServer.m[key] = append(abandonedByServer.m[key], abandonedBackend{pid: conn.PID(), since: time.Now()})
}

// abandonedPIDs lists them as a PostgreSQL array literal ("" when none).
func (d *DB) abandonedPIDs() string {
	abandonedByServer.Lock()
	defer abandonedByServer.Unlock()
	list := abandonedByServer.m[d.serverAddr()]
	if len(list) == 0 {
		return ""
	}
	parts := make([]string, len(list))
	for i, a := range list {
		parts[i] = strconv.FormatUint(uint64(a.pid), 10)
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// forgetIdle keeps only the abandoned processes still busy (busy is a
// comma-separated list of PIDs).
func (d *DB) forgetIdle(busy string) {
	keep := map[string]bool{}
	for _, p := range strings.Split(busy, ",") {
		if p != "" {
			keep[p] = true
		}
	}
	key := d.serverAddr()
	abandonedByServer.Lock()
	defer abandonedByServer.Unlock()
	var out []abandonedBackend
	for _, a := range abandonedByServer.m[key] {
		if keep[strconv.FormatUint(uint64(a.pid), 10)] {
			out = append(out, a)
		}
	}
	if len(out) == 0 {
		delete(abandonedByServer.m, key)
	} else {
		abandonedByServer.m[key] = out
	}
}

// abandonedSQL lists which of the given server processes still run a
// statement.
const abandonedSQL = `SELECT coalesce(pg_catalog.string_agg(pid::text, ',' ORDER BY pid), '') FROM pg_catalog.pg_stat_activity
WHERE pid = ANY ($1::pg_catalog.int4[]) AND state IS DISTINCT FROM 'idle'`

// busyError says an earlier statement of this Querent still runs on the
// server.
type busyError struct{ pids string }

// Error names the server processes.
func (e *busyError) Error() string { return "earlier statements still run on the server: " + e.pids }

// waitPoll is how often waitAbandoned looks again.
const waitPoll = 200 * time.Millisecond

// waitAbandoned waits until the abandoned statements have ended, at most
// limit; past it, or when ctx ends, it says why the statement did not start.
func (d *DB) waitAbandoned(ctx context.Context, limit time.Duration, busy *busyError) error {
	deadline := time.Now().Add(limit)
	pids := busy.pids
	for {
		d.forgetIdle(pids)
		list := d.abandonedPIDs()
		if list == "" {
			return nil
		}
		if !time.Now().Before(deadline) {
			return d.stillRunning(pids)
		}
		t := time.NewTimer(min(waitPoll, time.Until(deadline)))
		select {
		case <-ctx.Done():
			t.Stop()
			return engine.AsError(ctx.Err())
		case <-t.C:
		}
		rows, err := d.queryLocked(ctx, abandonedSQL, list)
		if err != nil {
			return d.readError(ctx, err)
		}
		pids = ""
		if len(rows) == 1 {
			pids = rows[0][0]
		}
	}
}

// stillRunning is the error for a statement that could not start.
func (d *DB) stillRunning(pids string) *engine.Error {
	abandonedByServer.Lock()
	var since time.Time
	for _, a := range abandonedByServer.m[d.serverAddr()] {
		if since.IsZero() || a.since.Before(since) {
			since = a.since
		}
	}
	abandonedByServer.Unlock()
	list := strings.Split(pids, ",")
	sort.Strings(list)
	ago := time.Since(since).Round(time.Second)
	return engine.Errorf(engine.CodeTimeout,
		"an earlier query of Querent's is still running on the server (process %s, stopped by Querent %s ago): PostgreSQL cannot interrupt some work once it has started (a LIKE or regular expression over a long text, a hash of a very large value), and Querent starts no other query on this server until it ends",
		strings.Join(list, ", "), ago).WithHint(
		"wait for it to end and try again; the server's administrator can see it in pg_stat_activity (pid %s)", strings.Join(list, ", "))
}

// sessionCheck is what the server must hold for the guard's reading of
// the text to be the server's: the startup packet sets these, and a
// server (or a pooler) that does not keep them is refused.
var sessionCheck = []struct{ name, want string }{
	{"standard_conforming_strings", "on"},
	{"client_encoding", "UTF8"},
}

// checkSession refuses a connection on which the text of a statement could
// be read otherwise than PostgreSQL's parser in Querent reads it.
func (d *DB) checkSession(conn *pgconn.PgConn) error {
	for _, s := range sessionCheck {
		if got := conn.ParameterStatus(s.name); !strings.EqualFold(got, s.want) {
			return dbError(d.name, "the server does not keep %s = %s for Querent's session (it reports %q): the guard and the server could then read the same SQL text differently, so Querent does not use this connection", s.name, s.want, got).WithHint(
				"connect to the server directly rather than through a pooler that rewrites the session's settings, or ask its administrator why %s cannot be set", s.name)
		}
	}
	return nil
}
