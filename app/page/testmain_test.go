package page_test

import (
	"testing"

	"querent/app/apptest"
)

// TestMain serves as the query worker when asked and keeps the data folder
// out of the home folder (apptest.Main).
func TestMain(m *testing.M) { apptest.Main(m) }
