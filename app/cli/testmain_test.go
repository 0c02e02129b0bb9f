package cli

import (
	"testing"

	"querent/app/apptest"
)

// TestMain keeps the demo database's private copy (and any history) in a
// temporary data folder, not in the home folder, and lets the test binary
// serve as the query worker of the databases wiring.OpenDatabase opens.
func TestMain(m *testing.M) { apptest.Main(m) }
