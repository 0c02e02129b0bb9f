//go:build !unix

package main

import (
	"errors"
	"os"
)

func killPID(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		p.Kill()
	}
}

func mkfifo(path string) error { return errors.ErrUnsupported }
