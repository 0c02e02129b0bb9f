package web_test

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"querent/engine/postgres/pgtest"

	"github.com/xuri/excelize/v2"
)

// TestLanguagesEndToEnd drives the page in French (the browser's own
// language) and in Simplified Chinese (chosen in Settings) in the real
// browser (frontend/e2e/i18n.e2e.mjs): the start screen, an answer with
// its numbers and dates in the locale's form, the statistics, the chart,
// an error, an export, the connect dialog, the history, the choice kept
// across a reload; nothing cut or overflowing, CJK glyphs drawn. The
// exported workbook's sheets are in French, its values exact.
func TestLanguagesEndToEnd(t *testing.T) {
	needsBrowser(t, "")
	out := reportDir(t)
	url := serveFor(t, "127.0.0.1:1", "")
	args := []string{url, out}
	// With the shared messy files, the import dialog's reasons in French.
	if messy, err := filepath.Abs("../../../shared/data/messy"); err == nil {
		if _, err := os.Stat(filepath.Join(messy, "csv", "538_cabinet-turnover.csv")); err == nil {
			args = append(args, messy)
		}
	}
	// With PostgreSQL, the connect dialog's refusal of a superuser in
	// Chinese (the engine's words said by Go).
	var env []string
	if _, err := pgtest.FindBin(); err == nil || pgtest.Required() {
		srv, _ := pgtest.StartChinook(t)
		env = append(env, "PG_HOST=127.0.0.1", "PG_PORT="+strconv.Itoa(srv.Port), "PG_DATABASE=chinook",
			"PG_SUPER="+pgtest.SuperUser, "PG_SUPER_PASSWORD="+pgtest.SuperPassword)
	}
	runScript(t, "i18n.e2e.mjs", 3*time.Minute, args, env...)
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
