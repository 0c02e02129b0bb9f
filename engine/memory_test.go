package engine

import (
	"os"
	"testing"
)

func TestModelFits(t *testing.T) {
	const gib = 1 << 30
	for _, tc := range []struct {
		size, mem   int64
		fits, known bool
	}{
		{4 * gib, 16 * gib, true, true},
		{4 * gib, 6 * gib, false, true}, // 4.8 GiB with 2 GiB kept: 6.8 > 6
		{5 * gib, 8 * gib, true, true},  // 6 ≤ 6
		{0, 8 * gib, false, false},
		{4 * gib, 0, false, false},
	} {
		fits, known := ModelFits(tc.size, tc.mem)
		if fits != tc.fits || known != tc.known {
			t.Errorf("ModelFits(%d, %d) = %v, %v; want %v, %v", tc.size, tc.mem, fits, known, tc.fits, tc.known)
		}
	}
	if _, err := os.Stat("/proc/meminfo"); err == nil && TotalMemory() < 64<<20 {
		t.Errorf("TotalMemory() = %d on a machine with /proc/meminfo", TotalMemory())
	}
}
