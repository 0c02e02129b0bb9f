//go:build !linux

package pgtest

import "os/exec"

// setOwner does nothing here: running as another user and a parent-death
// signal are Linux features; Stop ends the server.
func setOwner(cmd *exec.Cmd, o *owner) {}

// killGroup kills cmd's process.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
