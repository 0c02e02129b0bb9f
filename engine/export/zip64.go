package export

import (
	"archive/zip"
	"encoding/binary"
	"os"
)

// fixZip64Headers sets the "version needed" of the local header of every
// entry larger than limit (math.MaxUint32 in use) to 4.5, as excelize does
// for files it writes itself: Excel refuses a ZIP64 entry whose local
// header says 2.0, which Go's zip writer writes when it does not know the
// size in advance. Entries are found through the central directory; a
// header that does not look as expected is left alone.
func fixZip64Headers(f *os.File, limit uint64) error {
	st, err := f.Stat()
	if err != nil {
		return err
	}
	zr, err := zip.NewReader(f, st.Size())
	if err != nil {
		return err
	}
	for _, e := range zr.File {
		if e.UncompressedSize64 <= limit && e.CompressedSize64 <= limit {
			continue
		}
		data, err := e.DataOffset()
		if err != nil {
			return err
		}
		// Go writes no extra field in a streamed entry's local header.
		off := data - 30 - int64(len(e.Name))
		if off < 0 {
			continue
		}
		var h [30]byte
		if _, err := f.ReadAt(h[:], off); err != nil {
			return err
		}
		if binary.LittleEndian.Uint32(h[0:4]) != 0x04034b50 ||
			int(binary.LittleEndian.Uint16(h[26:28])) != len(e.Name) ||
			binary.LittleEndian.Uint16(h[28:30]) != 0 {
			continue
		}
		var v [2]byte
		binary.LittleEndian.PutUint16(v[:], 45)
		if _, err := f.WriteAt(v[:], off+4); err != nil {
			return err
		}
	}
	return nil
}
