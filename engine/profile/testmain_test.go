package profile_test

import (
	"testing"

	"querent/engine/enginetest"
)

// TestMain keeps the demo database's private copy in a temporary data
// folder, not in the home folder.
func TestMain(m *testing.M) { enginetest.Main(m) }
