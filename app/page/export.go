package page

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"querent/engine/export"

	"querent/engine"
	"querent/engine/text"
)

// Export writes answers to XLSX and CSV files.
type Export struct{ a *app }

// ExportResult says what an export wrote: the engine's report, and in the
// browser mode where the page downloads the file.
type ExportResult struct {
	*export.Report
	// Download is set in the browser mode: where the page fetches the file.
	Download string `json:"download,omitempty"`
}

// ChooseFile shows the desktop's save dialog for an export.
func (e *Export) ChooseFile(defaultName string) (string, error) {
	dl := e.a.dialogsOrNil()
	if dl == nil {
		return "", ErrNoDialogs
	}
	filters := []FileFilter{{Name: "Excel workbook", Pattern: "*.xlsx"}, {Name: "CSV file", Pattern: "*.csv"}}
	if strings.EqualFold(filepath.Ext(defaultName), ".csv") {
		filters[0], filters[1] = filters[1], filters[0]
	}
	return dl.SaveFile("Export to", defaultName, filters)
}

// Run exports the whole result of SQL to a file (progress events
// "export:progress"; Cancel stops it and leaves nothing behind).
func (e *Export) Run(req export.Request) (*ExportResult, error) {
	db, err := e.a.current()
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(req.Out) == "" {
		return nil, engine.Errorf(engine.CodeUsage, "no file to write").WithHint("choose where to save the export")
	}
	ctx, done := e.a.begin("export")
	defer done()
	start := time.Now()
	last := time.Time{}
	req.Progress = func(p export.Progress) {
		if time.Since(last) > 100*time.Millisecond {
			last = time.Now()
			e.a.emit(EventExportProgress, ExportProgress{Rows: p.Rows, Bytes: p.Bytes})
		}
	}
	req.Version = e.a.deps.Version
	rep, err := export.Run(ctx, db, req)
	if err != nil {
		return nil, err
	}
	rep.WarningsSaid = pageWarnings(engine.SentencesOf(rep.Warnings, rep.WarningWords))
	if rep.ElapsedS == 0 {
		rep.ElapsedS = engine.Seconds(time.Since(start))
	}
	return &ExportResult{Report: rep}, nil
}

// Cancel stops a running export.
func (e *Export) Cancel() error {
	e.a.cancel("export")
	return nil
}

// DefaultName proposes a file name for an export: from the question it
// answers when there is one ("Top 10 customers by spending" →
// top-10-customers-by-spending.xlsx), else the open database's name and the
// time (chinook-2026-12-01-1407.xlsx). title is the question, or a heading
// such as the previewed table's name; "" for direct SQL.
func (e *Export) DefaultName(format, title string) (string, error) {
	if format != "csv" {
		format = "xlsx"
	}
	name := text.Slug(title, 60)
	if name == "" {
		name = e.a.stem("querent-export") + "-" + time.Now().Format("2006-01-02-1504")
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, name+"."+format), nil
}
