//go:build unix

package files

import (
	"fmt"
	"os"
	"syscall"
)

func idOf(f *os.File) (FileID, error) {
	st, err := f.Stat()
	if err != nil {
		return FileID{}, err
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return FileID{}, fmt.Errorf("%s: no file identity on this system", f.Name())
	}
	return FileID{Dev: uint64(sys.Dev), Ino: uint64(sys.Ino), Size: st.Size(), ModNs: st.ModTime().UnixNano(), ChangeNs: changeNs(sys)}, nil
}
