//go:build windows

package files

import (
	"os"
	"syscall"
)

// idOf reads the volume, file index, size and last write time of the open
// file (Windows has no change time).
func idOf(f *os.File) (FileID, error) {
	var info syscall.ByHandleFileInformation
	if err := syscall.GetFileInformationByHandle(syscall.Handle(f.Fd()), &info); err != nil {
		return FileID{}, &os.PathError{Op: "GetFileInformationByHandle", Path: f.Name(), Err: err}
	}
	return FileID{
		Dev:   uint64(info.VolumeSerialNumber),
		Ino:   uint64(info.FileIndexHigh)<<32 | uint64(info.FileIndexLow),
		Size:  int64(info.FileSizeHigh)<<32 | int64(info.FileSizeLow),
		ModNs: info.LastWriteTime.Nanoseconds(),
	}, nil
}
