//go:build linux

package pgtest

import (
	"os/exec"
	"syscall"
)

// setOwner runs cmd as the cluster's owner (when the tests run as root) and
// has the kernel send it SIGQUIT (PostgreSQL's immediate shutdown) when the
// test binary dies, so that no server outlives its tests.
func setOwner(cmd *exec.Cmd, o *owner) {
	attr := &syscall.SysProcAttr{Pdeathsig: syscall.SIGQUIT, Setpgid: true}
	if o != nil {
		attr.Credential = &syscall.Credential{Uid: uint32(o.uid), Gid: uint32(o.gid)}
	}
	cmd.SysProcAttr = attr
}
