//go:build !unix

package files

import "errors"

func mkfifo(path string) error { return errors.ErrUnsupported }
