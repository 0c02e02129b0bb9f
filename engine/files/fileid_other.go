//go:build !unix && !windows

package files

import "os"

// idOf knows only the size and modification time here.
func idOf(f *os.File) (FileID, error) {
	st, err := f.Stat()
	if err != nil {
		return FileID{}, err
	}
	return FileID{Size: st.Size(), ModNs: st.ModTime().UnixNano()}, nil
}
