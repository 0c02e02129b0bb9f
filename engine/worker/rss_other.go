//go:build !linux

package worker

// residentBytes is unknown here: the worker's memory is bounded by SQLite's
// heap limit, the guard's row and result caps and Go's memory limit.
func residentBytes(pid int) int64 { return 0 }
