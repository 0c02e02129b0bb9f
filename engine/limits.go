package engine

import (
	"fmt"
	"math"
	"time"
)

// Ceilings on what one request may ask for (design.md rule 11: a limit is a
// mechanism). A value past a ceiling is lowered to it, with a warning that
// says so; a value that is no amount at all (negative, not finite) is a
// usage error. They hold for every face: the command line, the sub-agent
// request, the MCP tools and the app's settings.
const (
	// MaxRowsInMemory is the most rows an answer keeps in memory (and
	// sends back). Exports stream and have no such ceiling.
	MaxRowsInMemory = 1_000_000
	// MaxTimeout is the longest a query answered on screen (or to an
	// agent) may run; the default is DefaultTimeout.
	MaxTimeout = 10 * time.Minute
	// MaxExportTimeout is the longest an export's query may run: an
	// export reads every row, so it gets more than MaxTimeout (its default
	// is DefaultExportTimeout), but not forever.
	MaxExportTimeout = time.Hour
)

// The warnings of the functions below start with name: how the request
// spelt the value, for the user to find it ("--max-rows 5000000",
// "timeout_s 9e9").

// ClampRows lowers a requested row cap to MaxRowsInMemory, with a warning
// ("" when n was within the ceiling).
func ClampRows(name string, n int64) (int, string) {
	if n > MaxRowsInMemory {
		return MaxRowsInMemory, fmt.Sprintf("%s is more than the %s rows an answer keeps in memory: at most %s rows are returned (export the query for every row)",
			name, GroupThousands(MaxRowsInMemory), GroupThousands(MaxRowsInMemory))
	}
	return int(n), ""
}

// ClampTimeout lowers a requested timeout to ceiling, with a warning ("" when
// d was within it).
func ClampTimeout(name string, d, ceiling time.Duration) (time.Duration, string) {
	if d > ceiling {
		return ceiling, fmt.Sprintf("%s is longer than the %s a query may run: it runs for %s at most", name, humanDuration(ceiling), humanDuration(ceiling))
	}
	return d, ""
}

// DurationFromSeconds returns s seconds as a Duration, lowered to ceiling (with a
// warning naming the field, "" when within it). Negative, NaN and infinite
// values are usage errors; so is 0 when !zeroOK. The comparison is made on
// the float, before any conversion, because a float too large for a
// Duration converts to an arbitrary value in Go.
func DurationFromSeconds(name string, s float64, ceiling time.Duration, zeroOK bool) (time.Duration, string, error) {
	switch {
	case math.IsNaN(s) || math.IsInf(s, 0):
		return 0, "", Errorf(CodeUsage, "%s is not a finite number of seconds", name)
	case s < 0 || s == 0 && !zeroOK:
		return 0, "", Errorf(CodeUsage, "%s is not a number of seconds more than 0", name)
	case s > ceiling.Seconds():
		d, w := ClampTimeout(name, time.Duration(math.MaxInt64), ceiling)
		return d, w, nil
	}
	return time.Duration(s * float64(time.Second)), "", nil
}

// humanDuration writes a ceiling the way people say it: "10 minutes",
// "1 hour", "30 seconds".
func humanDuration(d time.Duration) string {
	unit := func(n int64, one string) string {
		if n == 1 {
			return "1 " + one
		}
		return fmt.Sprintf("%d %ss", n, one)
	}
	switch {
	case d%time.Hour == 0:
		return unit(int64(d/time.Hour), "hour")
	case d%time.Minute == 0:
		return unit(int64(d/time.Minute), "minute")
	case d%time.Second == 0:
		return unit(int64(d/time.Second), "second")
	}
	return d.String()
}
