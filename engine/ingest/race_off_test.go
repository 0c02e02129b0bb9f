//go:build !race

package ingest

const xlRace = false
