package engine

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// TotalMemory is this machine's memory in bytes (Linux's MemTotal, from
// /proc/meminfo); 0 where it cannot be read (another system).
func TotalMemory() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
			fields := strings.Fields(rest)
			if len(fields) >= 1 {
				if kb, err := strconv.ParseInt(fields[0], 10, 64); err == nil {
					return kb * 1024
				}
			}
		}
	}
	return 0
}

// memoryReserve is what a machine keeps for its system and other programs
// when a model is loaded (2 GiB).
const memoryReserve = 2 << 30

// ModelFits reports whether a model of sizeBytes (its file: the weights)
// fits in memory bytes: the weights and a fifth more for the context's
// cache and the runtime, with memoryReserve left for the rest. known is
// false when either is unknown.
func ModelFits(sizeBytes, memory int64) (fits, known bool) {
	if sizeBytes <= 0 || memory <= 0 {
		return false, false
	}
	return sizeBytes+sizeBytes/5 <= memory-memoryReserve, true
}
