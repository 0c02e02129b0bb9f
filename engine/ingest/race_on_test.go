//go:build race

package ingest

// xlRace: the race detector is on, and allocations are not what they are
// without it.
const xlRace = true
