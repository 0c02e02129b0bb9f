package desktop_test

import (
	"os"
	"testing"

	"querent/app/desktop/wiring"
)

// TestMain lets this test binary serve as the query worker that the
// services' databases open in (wiring.OpenDatabase starts this executable
// again), and keeps Querent's data folder out of the home folder.
func TestMain(m *testing.M) {
	wiring.RunWorkerIfAsked()
	if os.Getenv("QUERENT_DATA_DIR") == "" {
		dir, err := os.MkdirTemp("", "querent-test-data-")
		if err != nil {
			panic(err)
		}
		os.Setenv("QUERENT_DATA_DIR", dir)
		code := m.Run()
		os.RemoveAll(dir)
		os.Exit(code)
	}
	os.Exit(m.Run())
}
