//go:build race

package ingest

// raceEnabled: the race detector is on, and allocations are not what they are
// without it.
const raceEnabled = true
