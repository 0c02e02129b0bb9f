package engine

import (
	"math"
	"strings"
	"testing"
	"time"
)

func TestDurationFromSeconds(t *testing.T) {
	tests := []struct {
		s       float64
		zeroOK  bool
		want    time.Duration
		warning bool
		err     bool
	}{
		{30, false, 30 * time.Second, false, false},
		{0.5, false, 500 * time.Millisecond, false, false},
		{600, false, 10 * time.Minute, false, false},
		{600.001, false, 10 * time.Minute, true, false},
		{9e9, false, 10 * time.Minute, true, false},
		{1e300, false, 10 * time.Minute, true, false},
		{math.MaxFloat64, false, 10 * time.Minute, true, false},
		{0, true, 0, false, false},
		{0, false, 0, false, true},
		{-1, false, 0, false, true},
		{math.Inf(1), false, 0, false, true},
		{math.Inf(-1), false, 0, false, true},
		{math.NaN(), false, 0, false, true},
	}
	for _, tt := range tests {
		got, w, err := DurationFromSeconds("timeout_s x", tt.s, MaxTimeout, tt.zeroOK)
		if got != tt.want || (w != "") != tt.warning || (err != nil) != tt.err {
			t.Errorf("DurationFromSeconds(%v) = %v, %q, %v", tt.s, got, w, err)
		}
		if err != nil && ErrorCode(err) != CodeUsage {
			t.Errorf("%v: code %s, want usage", tt.s, ErrorCode(err))
		}
		if tt.warning && !strings.HasPrefix(w, "timeout_s x is longer than the 10 minutes") {
			t.Errorf("%v: warning %q", tt.s, w)
		}
	}
}

func TestClampRows(t *testing.T) {
	for _, tt := range []struct {
		n    int64
		want int
		warn bool
	}{{1, 1, false}, {MaxRowsInMemory, MaxRowsInMemory, false}, {MaxRowsInMemory + 1, MaxRowsInMemory, true}, {math.MaxInt64, MaxRowsInMemory, true}} {
		got, w := ClampRows("--max-rows n", tt.n)
		if got != tt.want || (w != "") != tt.warn {
			t.Errorf("ClampRows(%d) = %d, %q", tt.n, got, w)
		}
	}
	if _, w := ClampTimeout("--timeout", time.Duration(math.MaxInt64), MaxExportTimeout); w != "--timeout is longer than the 1 hour a query may run: it runs for 1 hour at most" {
		t.Errorf("ClampTimeout warning %q", w)
	}
}
