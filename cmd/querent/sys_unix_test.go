//go:build unix

package main

import "syscall"

func killPID(pid int) { syscall.Kill(pid, syscall.SIGKILL) }

func mkfifo(path string) error { return syscall.Mkfifo(path, 0o644) }
