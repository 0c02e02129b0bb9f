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

// canInherit: os/exec passes no extra descriptors on Windows, so a worker
// opens the file by path and checks that it is the parent's file, in the
// same state (files.FileID: volume, file index, size, write time). While
// the parent holds the file open, Windows lets no one delete or rename it.
const canInherit = false
