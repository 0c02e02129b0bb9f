//go:build linux || openbsd || dragonfly || solaris || illumos || aix

package files

import "syscall"

// changeNs is the file's change time (ctime), which every write and every
// change of its metadata sets, and which no program can set back.
func changeNs(st *syscall.Stat_t) int64 { return st.Ctim.Nano() }
