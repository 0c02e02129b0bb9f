package ingest

import (
	"sync"
)

// The bounds of reading, shared by the CSV and XLSX readers.
//
// A value holds at most maxFieldBytes and a row at most maxRecordBytes,
// whatever the format: the CSV parser stops at them, and the XLSX reader
// measures every cell's XML text before excelize builds the value.
const (
	maxFieldBytes  = 10 << 20
	maxRecordBytes = 64 << 20
)

const (
	// DefaultMaxMemory is the memory ceiling of reading one input when
	// Options.MaxMemory is 0: 1 GiB.
	DefaultMaxMemory = 1 << 30
	// DefaultMaxTemp is the ceiling on the import's temporary files when
	// Options.MaxTemp is 0: 4 GiB.
	DefaultMaxTemp = 4 << 30
)

func (o Options) maxMemory() int64 {
	if o.MaxMemory > 0 {
		return o.MaxMemory
	}
	return DefaultMaxMemory
}

func (o Options) maxTemp() int64 {
	if o.MaxTemp > 0 {
		return o.MaxTemp
	}
	return DefaultMaxTemp
}

// tempSpace counts the bytes of the import's temporary files in this
// process: the spill files of the XLSX tables read and not yet stored,
// and the parts excelize extracts while a workbook is open. Each reader
// reserves room before it writes, against its own Options.MaxTemp, so the
// files that exist at once never pass the ceiling, whatever the inputs.
var tempSpace struct {
	sync.Mutex
	used int64
}

// reserveTemp takes n bytes of temporary space; it reports false (and
// takes nothing) when that would pass limit.
func reserveTemp(n, limit int64) bool {
	tempSpace.Lock()
	defer tempSpace.Unlock()
	if n > limit-tempSpace.used {
		return false
	}
	tempSpace.used += n
	return true
}

// releaseTemp gives back n bytes taken with reserveTemp.
func releaseTemp(n int64) {
	tempSpace.Lock()
	tempSpace.used -= n
	tempSpace.Unlock()
}
