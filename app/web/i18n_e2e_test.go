package web_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"querent/frontend"
)

// TestLanguagesEndToEnd drives the page in French (the browser's own
// language) and in Simplified Chinese (chosen in Settings) in the real
// browser (frontend/e2e/i18n.e2e.mjs): the start screen, an answer with
// its numbers and dates in the locale's form, the statistics, the chart,
// an error, an export, the connect dialog, the history, the choice kept
// across a reload; nothing cut or overflowing, CJK glyphs drawn. The
// exported workbook's sheets are in French, its values exact.
func TestLanguagesEndToEnd(t *testing.T) {
	if os.Getenv("QUERENT_E2E") == "" {
		t.Skip("set QUERENT_E2E=1 (make e2e): needs the built page, frontend/node_modules and /usr/bin/chromium")
	}
	if !frontend.Built() {
		t.Fatal("the page is not built: run make frontend")
	}
	script, err := filepath.Abs("../../frontend/e2e/i18n.e2e.mjs")
	if err != nil {
		t.Fatal(err)
	}
	out := reportDir(t)
	url := serveFor(t, "127.0.0.1:1", "")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	args := []string{script, url, out}
	// With the shared messy files, the import dialog's reasons in French.
	if messy, err := filepath.Abs("../../../shared/data/messy"); err == nil {
		if _, err := os.Stat(filepath.Join(messy, "csv", "538_cabinet-turnover.csv")); err == nil {
			args = append(args, messy)
		}
	}
	cmd := exec.CommandContext(ctx, "node", args...)
	cmd.Dir = filepath.Dir(filepath.Dir(script))
	cmd.Env = append(os.Environ(), "CHROMIUM="+chromium())
	b, err := cmd.CombinedOutput()
	t.Logf("%s", b)
	if err != nil {
		t.Fatalf("the languages' end-to-end script failed: %v", err)
	}
	f, err := excelize.OpenFile(filepath.Join(out, "i18n-fr-export.xlsx"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sheets := f.GetSheetList()
	if len(sheets) < 3 || sheets[0] != "Données" {
		t.Errorf("the French workbook's sheets: %v", sheets)
	}
	// The data as it is: the total of the first country, unformatted.
	if v, err := f.GetCellValue(sheets[0], "C2", excelize.Options{RawCellValue: true}); err != nil || v != "523.06" {
		t.Errorf("the first total in the French workbook: %q, %v (want 523.06 as stored)", v, err)
	}
}
