package web_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// importEndToEnd drives the import dialog in the real browser
// (frontend/e2e/import.e2e.mjs, apart from app.e2e.mjs) on a server of its
// own with nothing open: the preview of the shared messy files, choices of
// types, names and bad-value policies, nothing written before Import, the
// report, a workbook's cell range, a large file's sample and a cancelled
// import that leaves nothing behind. Its screenshots (import-*.png) go to
// out with the others.
func importEndToEnd(t *testing.T, out string) {
	t.Helper()
	messy, err := filepath.Abs("../../../shared/data/messy")
	if err == nil {
		_, err = os.Stat(filepath.Join(messy, "csv", "538_cabinet-turnover.csv"))
	}
	if err != nil {
		t.Logf("the import dialog's browser checks need ../shared/data/messy: %v", err)
		return
	}
	url := serveFor(t, "127.0.0.1:1", "")
	runScript(t, "import.e2e.mjs", 3*time.Minute, []string{url, out, messy})
}
