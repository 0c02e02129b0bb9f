//go:build unix && !(linux || freebsd || openbsd || dragonfly || solaris || illumos || aix || darwin || netbsd || ios)

package files

import "syscall"

// changeNs is unknown here: size and modification time stand for it.
func changeNs(st *syscall.Stat_t) int64 { return 0 }
