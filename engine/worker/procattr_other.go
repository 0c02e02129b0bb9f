//go:build !unix && !windows

package worker

import "os/exec"

// setProcAttr has nothing to set here.
func setProcAttr(cmd *exec.Cmd) {}

// canInherit: the worker opens the file by path and checks its identity.
const canInherit = false
