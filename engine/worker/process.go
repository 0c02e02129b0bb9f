package worker

import (
	"bufio"
	"encoding/binary"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"querent/engine"
)

// process is one running worker.
type process struct {
	cmd      *exec.Cmd
	stdin    io.WriteCloser
	fw       *frameWriter
	frames   chan frame    // frames read from the worker, in order
	dead     chan struct{} // closed when the worker's output ends
	exited   chan struct{} // closed when the worker was reaped (after dead)
	quit     chan struct{} // closed by kill and stop: frames are dropped from then on
	quitOnce sync.Once
	stderr   *tail // the end of what the worker wrote to stderr
	started  time.Time
	// queued is the payload bytes in frames, room is signalled when a
	// frame is taken from it: the reader reads ahead of the caller by
	// maxQueued bytes at most (a worker streaming rows of 10 MB to a slow
	// XLSX writer had 64 of them waiting in the parent).
	queued atomic.Int64
	room   chan struct{}
	// placeGiven: this worker's place in the Budget was given up (it died,
	// was killed or stopped, or handed its place to another).
	placeGiven atomic.Bool
}

// isDead reports whether the worker's output ended.
func (p *process) isDead() bool {
	select {
	case <-p.dead:
		return true
	default:
		return false
	}
}

// quitting reports whether the worker was killed or stopped.
func (p *process) quitting() bool {
	select {
	case <-p.quit:
		return true
	default:
		return false
	}
}

// setLimit tells the worker its call's share of memory now.
func (p *process) setLimit(limit int64) {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(limit))
	_ = p.fw.write(frameLimit, b[:])
}

// maxQueued bounds the frames read from a worker and not yet taken (one
// frame is always let through, however large).
const maxQueued = 8 << 20

// admit waits until n more bytes may be queued, and counts them; false
// when the worker is being stopped (the frame is then dropped).
func (p *process) admit(n int) bool {
	for {
		q := p.queued.Load()
		if q == 0 || q+int64(n) <= maxQueued {
			p.queued.Add(int64(n))
			return true
		}
		select {
		case <-p.room:
		case <-p.quit:
			return false
		}
	}
}

// took is told of each frame taken from frames.
func (p *process) took(f frame) {
	p.queued.Add(-int64(len(f.payload)))
	select {
	case p.room <- struct{}{}:
	default:
	}
}

// spawn starts a worker and waits for its hello.
// The worker inherits file (nil: none) as its descriptor inheritedFD
// where the system allows (canInherit).
func spawn(exe string, env []string, startTimeout time.Duration, file *os.File) (*process, error) {
	cmd := exec.Command(exe, workerArg)
	cmd.Env = workerEnv(env)
	if file != nil && canInherit {
		cmd.ExtraFiles = []*os.File{file}
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	t := &tail{max: 4096}
	cmd.Stderr = t
	setProcAttr(cmd)
	if err := cmd.Start(); err != nil {
		return nil, startError(exe, err)
	}
	p := &process{cmd: cmd, stdin: stdin, fw: newFrameWriter(stdin), frames: make(chan frame, 64),
		dead: make(chan struct{}), exited: make(chan struct{}), quit: make(chan struct{}), stderr: t, started: time.Now(),
		room: make(chan struct{}, 1)}
	go p.read(bufio.NewReaderSize(stdout, 256<<10))
	timer := time.NewTimer(startTimeout)
	defer timer.Stop()
	select {
	case f := <-p.frames:
		p.took(f)
		if f.typ != frameHello || len(f.payload) != 8 || binary.BigEndian.Uint64(f.payload) != protocolVersion {
			p.kill()
			return nil, engine.Errorf(engine.CodeInternal, "the query worker (%s) speaks another protocol: was Querent updated while it ran?", exe).WithHint(
				"start Querent again")
		}
		return p, nil
	case <-p.dead:
		p.kill()
		return nil, p.deathError("did not start")
	case <-timer.C:
		p.kill()
		return nil, engine.Errorf(engine.CodeInternal, "the query worker (%s) did not start within %s", exe, startTimeout).WithHint(
			"the machine may be very busy; try again")
	}
}

func startError(exe string, err error) *engine.Error {
	return engine.Errorf(engine.CodeInternal, "cannot start the query worker (%s): %v", exe, err).WithErr(err).WithHint(
		"Querent runs each database's queries in a copy of itself; check that its binary is still in place and may be run")
}

// read passes the worker's frames on until its output ends, then reaps
// the worker (the one call of Wait: it must follow the last read).
func (p *process) read(r *bufio.Reader) {
	defer func() {
		_ = p.cmd.Wait()
		close(p.exited)
	}()
	defer close(p.dead)
	for {
		f, err := readFrame(r)
		if err != nil {
			return
		}
		if !p.admit(len(f.payload)) {
			continue
		}
		select {
		case p.frames <- f:
		case <-p.quit:
			p.queued.Add(-int64(len(f.payload)))
		}
	}
}

// send writes a request.
func (p *process) send(req request) error { return p.fw.writeGob(frameRequest, req) }

// cancel asks the worker to cancel a request.
func (p *process) cancel(id uint64) {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], id)
	_ = p.fw.write(frameCancel, b[:])
}

// kill ends the worker at once, whatever it is doing; the reader reaps it.
func (p *process) kill() {
	p.quitOnce.Do(func() { close(p.quit) })
	if p.cmd.Process != nil {
		_ = p.cmd.Process.Kill()
	}
	_ = p.stdin.Close()
}

// stop ends the worker gracefully: closing its input makes it exit; a
// worker that does not within a second is killed.
func (p *process) stop() {
	p.quitOnce.Do(func() { close(p.quit) })
	_ = p.stdin.Close()
	go func() {
		timer := time.NewTimer(time.Second)
		defer timer.Stop()
		select {
		case <-p.exited:
		case <-timer.C:
			_ = p.cmd.Process.Kill()
		}
	}()
}

// deathError describes a worker that stopped without being asked to.
func (p *process) deathError(what string) *engine.Error {
	why := ""
	select {
	case <-p.exited:
		if st := p.cmd.ProcessState; st != nil {
			why = " (" + st.String() + ")"
		}
	case <-time.After(2 * time.Second):
	}
	msg := strings.TrimSpace(p.stderr.String())
	if msg != "" {
		if i := strings.LastIndexByte(msg, '\n'); i >= 0 && len(msg)-i < 200 {
			msg = msg[i+1:]
		}
		if len(msg) > 300 {
			msg = msg[len(msg)-300:]
		}
		msg = ": " + msg
	}
	return engine.Errorf(engine.CodeInternal, "the query worker %s%s%s", what, why, msg).WithHint(
		"this is a bug in Querent or the machine ran out of memory; try again, and report it if it happens again")
}

// tail keeps the last bytes written to it.
type tail struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append([]byte(nil), t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}

// rssOf returns the resident memory of a process in bytes, or 0 when it is
// not known on this system.
func rssOf(p *process) int64 {
	if p.cmd.Process == nil {
		return 0
	}
	return residentBytes(p.cmd.Process.Pid)
}
