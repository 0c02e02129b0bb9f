package ask_test

import (
	"os"
	"testing"
)

// TestMain keeps the demo database's private copy (and any history) in a
// temporary data folder, not in the home folder.
func TestMain(m *testing.M) {
	data, err := os.MkdirTemp("", "querent-test-data-")
	if err != nil {
		panic(err)
	}
	os.Setenv("QUERENT_DATA_DIR", data)
	code := m.Run()
	os.RemoveAll(data)
	os.Exit(code)
}
