// Package apptest is what the faces' tests share: a TestMain that lets the
// test binary serve as the query worker its databases open in.
package apptest

import (
	"testing"

	"querent/engine/enginetest"
	"querent/internal/wiring"
)

// Main runs the tests of m. Called from TestMain, it first serves as a
// query worker when the binary was started as one (wiring.OpenDatabase
// starts this executable again), and keeps Querent's data folder out of the
// home folder when QUERENT_DATA_DIR is not set.
func Main(m *testing.M) {
	wiring.RunWorkerIfAsked()
	enginetest.Main(m)
}
