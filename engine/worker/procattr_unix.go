//go:build unix

package worker

import (
	"os/exec"
	"syscall"
)

// setProcAttr puts the worker in its own process group, so that a Ctrl-C
// on the terminal reaches the parent only: the parent decides what to
// cancel, and a worker killed mid-query is the parent's choice.
func setProcAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// canInherit: a worker inherits the database file's descriptor
// (exec.Cmd.ExtraFiles).
const canInherit = true
