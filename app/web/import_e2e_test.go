package web_test

import (
	"context"
	"os"
	"os/exec"
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
	script, err := filepath.Abs("../../frontend/e2e/import.e2e.mjs")
	if err != nil {
		t.Fatal(err)
	}
	url := serveFor(t, "127.0.0.1:1", "")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", script, url, out, messy)
	cmd.Dir = filepath.Dir(filepath.Dir(script))
	cmd.Env = append(os.Environ(), "CHROMIUM="+chromium())
	b, err := cmd.CombinedOutput()
	t.Logf("%s", b)
	if err != nil {
		t.Fatalf("the import dialog's end-to-end script failed: %v", err)
	}
}
