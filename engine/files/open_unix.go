//go:build unix

package files

import (
	"os"
	"syscall"
)

// OpenNoBlock opens path read-only without blocking: O_NONBLOCK makes the
// open of a FIFO return at once (and changes nothing for a regular file),
// so that the caller can look at what it opened.
func OpenNoBlock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
