package engine

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// FormatSize writes a byte count the one way Querent shows sizes: binary
// units (1 KB = 1,024 bytes, as memory and most file managers count),
// whole numbers when exact, one decimal otherwise: "512 bytes", "10 MB",
// "1.5 GB".
func FormatSize(n int64) string {
	units := []struct {
		size int64
		name string
	}{{1 << 40, "TB"}, {1 << 30, "GB"}, {1 << 20, "MB"}, {1 << 10, "KB"}}
	neg := ""
	if n < 0 {
		neg, n = "-", -n
	}
	for _, u := range units {
		if n >= u.size {
			if n%u.size == 0 {
				return fmt.Sprintf("%s%d %s", neg, n/u.size, u.name)
			}
			return fmt.Sprintf("%s%.1f %s", neg, float64(n)/float64(u.size), u.name)
		}
	}
	if n == 1 {
		return neg + "1 byte"
	}
	return fmt.Sprintf("%s%d bytes", neg, n)
}

// ParseSize reads a size written as a number of bytes or with a unit: "512MB",
// "2 GB", "1.5g", "64k", "1073741824" (units are binary, as FormatSize's;
// "MiB" and "MB" mean the same). It refuses negative, non-finite and
// overflowing sizes.
func ParseSize(s string) (int64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	if t == "" {
		return 0, fmt.Errorf("no size given")
	}
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		size   int64
	}{{"TIB", 1 << 40}, {"GIB", 1 << 30}, {"MIB", 1 << 20}, {"KIB", 1 << 10},
		{"TB", 1 << 40}, {"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10},
		{"T", 1 << 40}, {"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}, {"B", 1}} {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.size
			break
		}
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("%q is not a size (write it like 512MB or 2GB)", s)
	}
	v := f * float64(mult)
	if v < 0 || v >= math.MaxInt64 {
		return 0, fmt.Errorf("%q is not a size between 0 and 8 EB", s)
	}
	return int64(v), nil
}
