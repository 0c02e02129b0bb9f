//go:build windows

package worker

import (
	"os/exec"
	"syscall"
)

// setProcAttr starts the worker in its own process group, so that a Ctrl-C
// in the console reaches the parent only: the parent decides what to cancel.
func setProcAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}
