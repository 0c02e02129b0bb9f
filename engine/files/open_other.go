//go:build !unix

package files

import "os"

// OpenNoBlock opens path read-only. Opening a file blocks on no system
// but Unix (whose FIFOs wait for a writer).
func OpenNoBlock(path string) (*os.File, error) {
	return os.Open(path)
}
