// Package pgtest starts a private PostgreSQL cluster for tests: a new
// cluster in a temporary folder (initdb), a postmaster listening on
// 127.0.0.1 at a free port and on a Unix socket in that folder, stopped when
// the tests end — and when the test binary dies without stopping it (a
// watcher stops it when its lifeline, a pipe from the test binary, closes,
// and removes the folder).
//
// The binaries are Debian's (/usr/lib/postgresql/N/bin, the newest N), or
// those of $QUERENT_PG_BIN, or initdb and postgres on $PATH. When none is
// found, Start returns ErrNoServer: tests skip with that message, unless
// $QUERENT_REQUIRE_POSTGRES is set (CI sets it), in which case they fail.
//
// initdb and postgres refuse to run as root; as root the cluster belongs to
// the "postgres" user (Debian's package makes it) and both run as that user.
package pgtest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// owner is the user the cluster's processes run as when the tests run as root.
type owner struct{ uid, gid int }

// ErrNoServer says that no PostgreSQL binaries were found.
var ErrNoServer = errors.New("no PostgreSQL server binaries (initdb, postgres) found: install Debian's postgresql package, or set QUERENT_PG_BIN to their folder")

// Required reports whether the tests must fail, not skip, without a server
// ($QUERENT_REQUIRE_POSTGRES is set to anything but "" or "0").
func Required() bool {
	v := os.Getenv("QUERENT_REQUIRE_POSTGRES")
	return v != "" && v != "0"
}

// SuperUser is the cluster's superuser; SuperPassword its password (host
// connections need one; the Unix socket trusts local users).
const (
	SuperUser     = "postgres"
	SuperPassword = "s3cret-Super-pw!"
)

// Server is one running private cluster.
type Server struct {
	// Dir holds the cluster's data, its log and its Unix socket.
	Dir string
	// Port is the TCP port on 127.0.0.1 (and the socket's number).
	Port int
	// Bin is the folder of the PostgreSQL binaries.
	Bin string
	// Version is the server's major version ("15").
	Version string

	cmd      *exec.Cmd
	lifeline *os.File // closing it stops the server
	done     chan struct{}
	waitErr  error
	once     sync.Once
	owner    *owner
	log      string
}

// FindBin returns the folder of the PostgreSQL binaries, or ErrNoServer.
func FindBin() (string, error) {
	if d := os.Getenv("QUERENT_PG_BIN"); d != "" {
		if isExe(filepath.Join(d, "initdb")) && isExe(filepath.Join(d, "postgres")) {
			return d, nil
		}
		return "", fmt.Errorf("%w (QUERENT_PG_BIN=%s holds no initdb and postgres)", ErrNoServer, d)
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return versionOf(dirs[i]) > versionOf(dirs[j]) })
	for _, d := range dirs {
		if isExe(filepath.Join(d, "initdb")) && isExe(filepath.Join(d, "postgres")) {
			return d, nil
		}
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		d := filepath.Dir(p)
		if isExe(filepath.Join(d, "postgres")) {
			return d, nil
		}
	}
	return "", ErrNoServer
}

func versionOf(binDir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return n
}

func isExe(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir() && st.Mode()&0o111 != 0
}

// Start makes and starts a new cluster. The caller must call Stop.
func Start(ctx context.Context) (*Server, error) {
	if v := os.Getenv("QUERENT_SKIP_POSTGRES"); v != "" && v != "0" && !Required() {
		return nil, fmt.Errorf("%w: QUERENT_SKIP_POSTGRES is set (make postgres runs these tests)", ErrNoServer)
	}
	bin, err := FindBin()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "querent-pg-")
	if err != nil {
		return nil, err
	}
	s := &Server{Dir: dir, Bin: bin, done: make(chan struct{}), log: filepath.Join(dir, "server.log")}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("running as root, the cluster needs the \"postgres\" user (Debian's postgresql package makes it): %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		s.owner = &owner{uid: uid, gid: gid}
		if err := os.Chown(dir, uid, gid); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
	}
	if err := s.initdb(ctx); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	// A free port can be taken by someone else between choosing and
	// binding: try a few.
	for attempt := 0; ; attempt++ {
		s.Port, err = freePort()
		if err == nil {
			err = s.start(ctx)
		}
		if err == nil {
			break
		}
		if attempt == 4 || ctx.Err() != nil {
			os.RemoveAll(dir)
			return nil, err
		}
	}
	out, err := s.Psql(ctx, "postgres", "-c", "SHOW server_version_num")
	if err != nil {
		s.Stop()
		return nil, err
	}
	if n, err := strconv.Atoi(strings.TrimSpace(out)); err == nil {
		s.Version = strconv.Itoa(n / 10000)
	}
	return s, nil
}

// command builds a command that runs as the cluster's owner.
func (s *Server) command(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, filepath.Join(s.Bin, name), args...)
	cmd.Dir = s.Dir
	cmd.Env = append(os.Environ(), "LC_ALL=C.UTF-8", "LANG=C.UTF-8")
	setOwner(cmd, s.owner)
	return cmd
}

func (s *Server) initdb(ctx context.Context) error {
	pw := filepath.Join(s.Dir, "pwfile")
	if err := os.WriteFile(pw, []byte(SuperPassword+"\n"), 0o600); err != nil {
		return err
	}
	if s.owner != nil {
		os.Chown(pw, s.owner.uid, s.owner.gid)
	}
	defer os.Remove(pw)
	cmd := s.command(ctx, "initdb", "-D", filepath.Join(s.Dir, "data"), "-U", SuperUser, "--pwfile", pw,
		"--auth-local=trust", "--auth-host=scram-sha-256", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync", "--no-instructions")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("initdb: %v\n%s", err, out)
	}
	return nil
}

// watcher runs the postmaster and stops it (fast shutdown) when its
// standard input reaches its end: when Stop closes the lifeline, or when
// the test binary dies in any way, since the kernel closes a dead process's
// files. (A parent-death signal is not enough: some sandboxes never deliver
// it, and it follows the thread that started the child, not the process.)
// Then it removes the cluster's folder.
const watcher = `exec 3<&0
"$@" <&- 3<&- & pg=$!
{ cat <&3 >/dev/null; kill -INT "$pg" 2>/dev/null; } &
exec 3<&-
wait "$pg"
cd / && rm -rf "$QUERENT_PG_CLUSTER"`

func (s *Server) start(ctx context.Context) error {
	logf, err := os.OpenFile(s.log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	if s.owner != nil {
		os.Chown(s.log, s.owner.uid, s.owner.gid)
	}
	lifeline, keep, err := os.Pipe()
	if err != nil {
		logf.Close()
		return err
	}
	// postgres itself, not pg_ctl: pg_ctl detaches the postmaster, which
	// would then outlive a test binary that dies without stopping it.
	args := []string{"-c", watcher, "sh", filepath.Join(s.Bin, "postgres"), "-D", filepath.Join(s.Dir, "data"),
		"-p", strconv.Itoa(s.Port), "-k", s.Dir, "-c", "listen_addresses=127.0.0.1",
		"-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
		"-c", "autovacuum=off", "-c", "max_connections=50", "-c", "shared_buffers=32MB",
		"-c", "logging_collector=off", "-c", "log_min_messages=warning", "-c", "TimeZone=UTC"}
	cmd := exec.Command("/bin/sh", args...)
	cmd.Dir = s.Dir
	cmd.Env = append(os.Environ(), "LC_ALL=C.UTF-8", "LANG=C.UTF-8", "QUERENT_PG_CLUSTER="+s.Dir)
	setOwner(cmd, s.owner)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = lifeline, logf, logf
	if err := cmd.Start(); err != nil {
		logf.Close()
		lifeline.Close()
		keep.Close()
		return err
	}
	lifeline.Close() // the child has it; this process keeps the other end
	s.cmd, s.lifeline = cmd, keep
	s.done = make(chan struct{})
	go func() {
		s.waitErr = cmd.Wait()
		logf.Close()
		close(s.done)
	}()
	deadline := time.Now().Add(30 * time.Second)
	for {
		select {
		case <-s.done:
			return fmt.Errorf("postgres exited while starting: %v\n%s", s.waitErr, s.tailLog())
		case <-ctx.Done():
			s.Stop()
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
		if _, err := os.Stat(filepath.Join(s.Dir, ".s.PGSQL."+strconv.Itoa(s.Port))); err == nil {
			c, err := net.DialTimeout("tcp", s.Addr(), time.Second)
			if err == nil {
				c.Close()
				if _, err := s.Psql(ctx, "postgres", "-c", "SELECT 1"); err == nil {
					return nil
				}
			}
		}
		if time.Now().After(deadline) {
			s.stopProcess()
			return fmt.Errorf("postgres did not start within 30 s\n%s", s.tailLog())
		}
	}
}

func (s *Server) tailLog() string {
	b, _ := os.ReadFile(s.log)
	if len(b) > 4000 {
		b = b[len(b)-4000:]
	}
	return string(b)
}

// Log returns the end of the server's log, for failure messages.
func (s *Server) Log() string { return s.tailLog() }

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// Addr is the server's TCP address, 127.0.0.1:port.
func (s *Server) Addr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(s.Port)) }

// Stop stops the server (fast shutdown: sessions are ended) and removes its
// folder. It may be called more than once.
func (s *Server) Stop() {
	s.once.Do(func() {
		s.stopProcess()
		os.RemoveAll(s.Dir)
	})
}

func (s *Server) stopProcess() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	s.lifeline.Close() // the watcher stops the postmaster (fast shutdown)
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
		killGroup(s.cmd)
		<-s.done
	}
}

// URL is a connection URL for user on the TCP address (password may be "").
func (s *Server) URL(user, password, database string) string {
	u := "postgres://" + user
	if password != "" {
		u += ":" + urlEscape(password)
	}
	return u + "@" + s.Addr() + "/" + database + "?sslmode=disable"
}

func urlEscape(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		if ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9') || c == '-' || c == '_' || c == '.' || c == '~' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// SocketURL is a connection string for the superuser over the Unix socket
// (trusted: no password).
func (s *Server) SocketURL(database string) string {
	return fmt.Sprintf("host=%s port=%d user=%s dbname=%s sslmode=disable", s.Dir, s.Port, SuperUser, database)
}

// Psql runs psql as the superuser over the Unix socket on database, with
// ON_ERROR_STOP, no psqlrc, unaligned tuples-only output; it returns stdout.
func (s *Server) Psql(ctx context.Context, database string, args ...string) (string, error) {
	cmd := s.PsqlCommand(ctx, database, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return out.String(), fmt.Errorf("psql %s: %v: %s", strings.Join(args, " "), err, errb.String())
	}
	return out.String(), nil
}

// PsqlCommand is the psql command that Psql runs, for callers that time it
// or feed it standard input.
func (s *Server) PsqlCommand(ctx context.Context, database string, args ...string) *exec.Cmd {
	psql := filepath.Join(s.Bin, "psql")
	if !isExe(psql) {
		psql = "psql"
	}
	all := append([]string{"-X", "-q", "-v", "ON_ERROR_STOP=1", "-At", "-h", s.Dir, "-p", strconv.Itoa(s.Port), "-U", SuperUser, "-d", database}, args...)
	cmd := exec.CommandContext(ctx, psql, all...)
	cmd.Env = append(os.Environ(), "PGAPPNAME=pgtest", "PGCONNECT_TIMEOUT=10", "LC_ALL=C.UTF-8")
	return cmd
}

// LoadFile runs an SQL script with psql after checking its sha256 (hex; ""
// skips the check): the tests load the seeds' own file, and a changed file
// would change every figure silently.
func (s *Server) LoadFile(ctx context.Context, database, path, sha string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if sha != "" {
		sum := sha256.Sum256(b)
		if got := hex.EncodeToString(sum[:]); got != sha {
			return fmt.Errorf("%s: sha256 %s, want %s (see ../shared/data/README.md)", path, got, sha)
		}
	}
	_, err = s.Psql(ctx, database, "-f", path)
	return err
}
