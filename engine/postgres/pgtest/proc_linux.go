//go:build linux

package pgtest

import (
	"os/exec"
	"syscall"
)

// setOwner runs cmd as the cluster's owner (when the tests run as root),
// in a process group of its own, so that killGroup reaches the postmaster
// too. (No parent-death signal: it would kill the watcher before it removes
// the cluster's folder, and the lifeline already stops the server.)
func setOwner(cmd *exec.Cmd, o *owner) {
	attr := &syscall.SysProcAttr{Setpgid: true}
	if o != nil {
		attr.Credential = &syscall.Credential{Uid: uint32(o.uid), Gid: uint32(o.gid)}
	}
	cmd.SysProcAttr = attr
}

// killGroup kills cmd's process group.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
