//go:build !unix && !windows

package worker

import "os/exec"

// setProcAttr has nothing to set here.
func setProcAttr(cmd *exec.Cmd) {}
