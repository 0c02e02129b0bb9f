package engine

import "testing"

func TestFormatSize(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want string
	}{{0, "0 bytes"}, {1, "1 byte"}, {1023, "1023 bytes"}, {1024, "1 KB"}, {1536, "1.5 KB"},
		{10 << 20, "10 MB"}, {1 << 30, "1 GB"}, {3 << 29, "1.5 GB"}, {-2048, "-2 KB"}} {
		if got := FormatSize(c.n); got != c.want {
			t.Errorf("FormatSize(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

func TestParseSize(t *testing.T) {
	for _, c := range []struct {
		s    string
		want int64
	}{{"512MB", 512 << 20}, {"2 GB", 2 << 30}, {"1.5g", 3 << 29}, {"64k", 64 << 10}, {"100", 100},
		{"1GiB", 1 << 30}, {" 7 b ", 7}} {
		got, err := ParseSize(c.s)
		if err != nil || got != c.want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", c.s, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "x", "-1MB", "NaN", "Inf", "1e300", "9e18GB"} {
		if got, err := ParseSize(bad); err == nil {
			t.Errorf("ParseSize(%q) = %d, want an error", bad, got)
		}
	}
}
