package worker

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
)

// How a worker is started, and how a process knows it is one.
//
// A worker is this very binary started again with one hidden argument,
// workerArg, and its standard input and output connected to the parent by
// pipes. Both must hold: a caller who types the argument at a terminal, or
// whose environment happens to hold some variable, gets the ordinary
// command (which refuses the unknown argument), never a worker that waits
// for frames. (Before, any non-empty QUERENT_WORKER, "0" and "false"
// included, made every command, --help too, print 13 bytes of a hello
// frame and exit 0.) The variable is now ignored, and removed from a
// worker's environment.
//
// The binary is the one running, not the file at the path it was started
// from: on Linux /proc/self/exe, which names the running program even when
// its file was renamed, replaced by an update or deleted; elsewhere the
// path os.Executable gave when this package was initialised, before
// anything could move it. So a worker started after a restart is always
// the parent's own version, and an update installed while Querent runs
// does not break its next query.

// workerArg is the hidden argument that, with pipes for standard input and
// output, marks a worker.
var workerArg = "--querent-query-worker=" + strconv.Itoa(protocolVersion)

// legacyEnv is the environment variable that marked workers before.
const legacyEnv = "QUERENT_WORKER"

// selfExe is the running binary, resolved once at start; selfExeErr says
// why it is unknown.
var selfExe, selfExeErr = resolveSelf()

func resolveSelf() (string, error) {
	if runtime.GOOS == "linux" {
		if _, err := os.Stat("/proc/self/exe"); err == nil {
			return "/proc/self/exe", nil
		}
	}
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	return exe, nil
}

// IsWorker reports whether this process was started as a query worker: the
// hidden argument, and pipes on both standard input and output.
func IsWorker() bool {
	return len(os.Args) == 2 && os.Args[1] == workerArg && isPipe(os.Stdin) && isPipe(os.Stdout)
}

func isPipe(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeNamedPipe != 0
}

// workerEnv is the environment of a worker: the parent's, with extra
// added, without the variable that marked workers before.
func workerEnv(extra []string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, legacyEnv+"=") {
			env = append(env, kv)
		}
	}
	return append(env, extra...)
}
