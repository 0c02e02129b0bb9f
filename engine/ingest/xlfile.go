package ingest

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf16"

	"github.com/xuri/excelize/v2"

	"querent/engine"
)

// The XLSX reader's file checks, before excelize opens the file: what the
// file is (a workbook, an older Excel file, an encrypted one, another
// archive), and the errors that say so.

var (
	oleMagic = []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}
	zipMagic = []byte("PK")
)

// zipArchive is a workbook's archive and the size of its file.
type zipArchive struct {
	*zip.Reader
	size int64
}

// checkWorkbookFile refuses what is not a readable XLSX: an encrypted
// workbook, an old .xls file, not a ZIP archive, not a regular file. It
// returns the archive's directory.
func checkWorkbookFile(fh *os.File, base string) (*zipArchive, error) {
	fi, err := fh.Stat()
	if err != nil {
		return nil, workbookError("cannot read %s: %v", base, err).WithErr(err)
	}
	if err := regularFile(base, fi); err != nil { // replaced since Read looked: refused all the same
		return nil, err
	}
	if err := checkMagic(fh, base); err != nil {
		return nil, err
	}
	zr, err := checkZip(fh, base)
	if err != nil {
		return nil, err
	}
	return &zipArchive{Reader: zr, size: fi.Size()}, nil
}

// hashFile is the file's sha256.
func hashFile(fh *os.File, base string) (string, error) {
	h := sha256.New()
	if _, err := io.Copy(h, io.NewSectionReader(fh, 0, math.MaxInt64)); err != nil {
		return "", workbookError("cannot read %s: %v", base, err).WithErr(err).
			WithHint("check that the file is readable and not being written")
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// checkMagic refuses an OLE file (an encrypted workbook or an .xls), an
// empty file and one that does not start like a ZIP archive.
func checkMagic(fh *os.File, base string) error {
	var magic [8]byte
	n, _ := io.ReadFull(fh, magic[:])
	switch {
	case n == 8 && bytes.Equal(magic[:], oleMagic):
		if oleHolds(fh, "EncryptionInfo") || oleHolds(fh, "EncryptedPackage") {
			return passwordError(base, nil)
		}
		if oleHolds(fh, "Workbook") || oleHolds(fh, "Book") ||
			strings.EqualFold(filepath.Ext(base), ".xls") {
			return workbookError("%s is an old Excel 97–2003 workbook (.xls), which Querent does not read", base).
				WithHint("open it in Excel and save it as .xlsx (File > Save As > Excel Workbook), then import that copy")
		}
		return workbookError("%s is an Office file that is not an .xlsx workbook (it may be password-protected)", base).
			WithHint("open it in Excel, remove any password (File > Info > Protect Workbook) and save a copy as .xlsx")
	case n == 0:
		return workbookError("%s is empty (0 bytes)", base).
			WithHint("copy the file again, or open it in Excel and save it as .xlsx")
	case n < 2 || !bytes.Equal(magic[:2], zipMagic):
		return corruptError(base, nil)
	}
	return nil
}

// checkZip reads the ZIP archive's directory: a damaged or truncated
// archive, or one that holds no Excel workbook, is refused with words that
// say which.
func checkZip(fh *os.File, base string) (*zip.Reader, error) {
	fi, err := fh.Stat()
	if err != nil {
		return nil, workbookError("cannot read %s: %v", base, err).WithErr(err)
	}
	zr, err := zip.NewReader(fh, fi.Size())
	if err != nil {
		return nil, corruptError(base, err)
	}
	kind := ""
	for _, e := range zr.File {
		switch n := strings.ToLower(e.Name); {
		case n == "xl/workbook.xml" || strings.HasPrefix(n, "xl/") && strings.HasSuffix(n, ".xml") && strings.Contains(n, "workbook"):
			return zr, nil
		case n == "xl/workbook.bin":
			kind = "xlsb"
		case n == "mimetype" || n == "content.xml":
			if kind == "" {
				kind = "ods"
			}
		case strings.HasPrefix(n, "word/") || strings.HasPrefix(n, "ppt/"):
			kind = "office"
		}
	}
	switch kind {
	case "xlsb":
		return nil, workbookError("%s is an Excel binary workbook (.xlsb), which Querent does not read", base).
			WithHint("open it in Excel and save it as .xlsx (File > Save As > Excel Workbook), then import that copy")
	case "ods":
		return nil, workbookError("%s is an OpenDocument file (.ods), not an Excel workbook", base).
			WithHint("open it in LibreOffice or Excel and save it as .xlsx, then import that copy")
	case "office":
		return nil, workbookError("%s is a Word or PowerPoint document, not an Excel workbook", base).
			WithHint("import an .xlsx workbook or a CSV file")
	}
	return nil, workbookError("%s is a ZIP archive, not an Excel workbook (it holds no xl/workbook.xml)", base).
		WithHint("if the data is inside the archive, extract it first; otherwise open the file in Excel and save it again as .xlsx")
}

func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func passwordError(base string, cause error) *engine.Error {
	return workbookError("%s is password-protected", base).WithErr(cause).
		WithHint("open it in Excel, remove the password (File > Info > Protect Workbook) and save a copy")
}

func corruptError(base string, cause error) *engine.Error {
	return workbookError("%s is not a valid .xlsx workbook: the file is damaged or truncated (it is not a complete ZIP archive)", base).
		WithErr(cause).
		WithHint("open it in Excel and save it again as .xlsx, or copy the file again if a download or transfer was interrupted")
}

// openError turns excelize.OpenFile's error into an import error.
func openError(base string, err error) *engine.Error {
	switch {
	case errors.Is(err, excelize.ErrWorkbookFileFormat), errors.Is(err, excelize.ErrWorkbookPassword),
		errors.Is(err, excelize.ErrUnknownEncryptMechanism), errors.Is(err, excelize.ErrUnsupportedEncryptMechanism):
		return passwordError(base, err)
	case errors.Is(err, zip.ErrFormat), errors.Is(err, zip.ErrChecksum), errors.Is(err, zip.ErrAlgorithm),
		errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return corruptError(base, err)
	}
	msg := err.Error()
	if strings.Contains(msg, "XML syntax") || strings.Contains(msg, "zip:") || strings.Contains(msg, "flate") {
		return corruptError(base, err)
	}
	return workbookError("cannot read %s as an .xlsx workbook: %v", base, err).WithErr(err).
		WithHint("open it in Excel and save it again as .xlsx")
}

// oleHolds reports whether the OLE compound file's directory holds an
// entry named name. It walks the directory's sector chain through the FAT
// sectors the header lists (enough for any workbook's directory).
func oleHolds(r io.ReaderAt, name string) bool {
	var hdr [512]byte
	if _, err := r.ReadAt(hdr[:], 0); err != nil {
		return false
	}
	shift := binary.LittleEndian.Uint16(hdr[0x1E:])
	if shift != 9 && shift != 12 {
		return false
	}
	ss := int64(1) << shift
	per := ss / 4 // FAT entries per sector
	var difat []uint32
	for i := 0; i < 109; i++ {
		difat = append(difat, binary.LittleEndian.Uint32(hdr[0x4C+4*i:]))
	}
	next := func(sect uint32) uint32 {
		k := int64(sect) / per
		if k >= int64(len(difat)) || difat[k] >= 0xFFFFFFFA {
			return 0xFFFFFFFE
		}
		var b [4]byte
		if _, err := r.ReadAt(b[:], (int64(difat[k])+1)*ss+(int64(sect)%per)*4); err != nil {
			return 0xFFFFFFFE
		}
		return binary.LittleEndian.Uint32(b[:])
	}
	buf := make([]byte, ss)
	sect := binary.LittleEndian.Uint32(hdr[0x30:])
	for steps := 0; sect < 0xFFFFFFFA && steps < 256; steps++ {
		if _, err := r.ReadAt(buf, (int64(sect)+1)*ss); err != nil {
			return false
		}
		for off := int64(0); off+128 <= ss; off += 128 {
			e := buf[off : off+128]
			n := int(binary.LittleEndian.Uint16(e[0x40:]))
			if n < 2 || n > 64 {
				continue
			}
			u := make([]uint16, n/2-1)
			for i := range u {
				u[i] = binary.LittleEndian.Uint16(e[2*i:])
			}
			if string(utf16.Decode(u)) == name {
				return true
			}
		}
		sect = next(sect)
	}
	return false
}
