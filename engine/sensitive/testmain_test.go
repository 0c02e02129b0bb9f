package sensitive_test

import (
	"testing"

	"querent/engine/enginetest"
)

// TestMain keeps Querent's data folder in a temporary folder.
func TestMain(m *testing.M) { enginetest.Main(m) }
