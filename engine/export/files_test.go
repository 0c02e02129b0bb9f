package export_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"querent/engine"
	"querent/engine/export"
)

// endless is a result far longer than any test waits for.
const endless = "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r WHERE x < 50000000) SELECT x, 'row ' || x AS label, x * 0.5 AS half FROM r"

func TestUsageErrors(t *testing.T) {
	db := demo(t)
	dir := t.TempDir()
	tests := []struct {
		name string
		out  string
		opts export.Options
		want string // in the message
	}{
		{"unknown extension", "a.txt", export.Options{}, "cannot tell the format"},
		{"no extension", "a", export.Options{}, "cannot tell the format"},
		{"unknown format", "a.xlsx", export.Options{Format: "ods"}, "unknown export format"},
		{"chart with CSV", "a.csv", export.Options{Chart: "bar"}, "a CSV file cannot hold a chart"},
		{"auto chart with CSV", "a.csv", export.Options{Chart: "auto"}, "a CSV file cannot hold a chart"},
		{"unknown chart", "a.xlsx", export.Options{Chart: "radar"}, "unknown chart"},
		{"table is no chart to ask for", "a.xlsx", export.Options{Chart: "table"}, "unknown chart"},
		{"bad delimiter", "a.csv", export.Options{Delimiter: ':'}, "unsupported CSV delimiter"},
		{"delimiter with XLSX", "a.xlsx", export.Options{Delimiter: ';'}, "--delimiter applies to CSV only"},
		{"BOM with XLSX", "a.xlsx", export.Options{BOM: true}, "--bom applies to CSV only"},
		{"raw with XLSX", "a.xlsx", export.Options{Raw: true}, "--raw applies to CSV only"},
		{"negative limit", "a.csv", export.Options{MaxRows: -1}, "must not be negative"},
		{"no file", "", export.Options{}, "no output file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := tt.out
			if out != "" {
				out = filepath.Join(dir, out)
			}
			_, err := export.Export(context.Background(), db, "SELECT 1", out, tt.opts)
			if got := engine.ErrorCode(err); got != engine.CodeUsage || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %s %v, want usage %q", got, err, tt.want)
			}
		})
	}
	if names := listDir(t, dir); len(names) != 0 {
		t.Errorf("files left: %v", names)
	}
	// The format may be named explicitly, whatever the extension.
	out := filepath.Join(dir, "data.txt")
	if rep, err := export.Export(context.Background(), db, "SELECT 1 AS one", out, export.Options{Format: "CSV"}); err != nil || rep.Format != "csv" {
		t.Errorf("explicit format: %v %v", rep, err)
	}
	out = filepath.Join(dir, "UPPER.XLSX")
	if rep, err := export.Export(context.Background(), db, "SELECT 1 AS one", out, export.Options{}); err != nil || rep.Format != "xlsx" {
		t.Errorf("upper-case extension: %v %v", rep, err)
	}
}

func TestExistingFile(t *testing.T) {
	db := demo(t)
	for _, format := range []string{"xlsx", "csv"} {
		t.Run(format, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "out."+format)
			old := []byte("the analyst's own file")
			if err := os.WriteFile(out, old, 0o644); err != nil {
				t.Fatal(err)
			}
			untouched := func(when string) {
				t.Helper()
				if got, _ := os.ReadFile(out); string(got) != string(old) {
					t.Errorf("%s: the existing file changed", when)
				}
				if names := listDir(t, dir); len(names) != 1 {
					t.Errorf("%s: files in the folder %v, want only out.%s", when, names, format)
				}
			}
			// Without --force: an export error naming --force.
			_, err := export.Export(context.Background(), db, "SELECT 1 AS one", out, export.Options{})
			e := engine.AsError(err)
			if e == nil || e.Code != engine.CodeExport || e.Message != "out."+format+" exists" ||
				e.Hint != "use --force to replace it, or choose another file" {
				t.Errorf("got %#v, want the export error naming --force", e)
			}
			untouched("without --force")
			// With --force, a failing statement leaves it alone.
			_, err = export.Export(context.Background(), db, "SELECT nope FROM Track", out, export.Options{Force: true})
			if engine.ErrorCode(err) != engine.CodeUnknownColumn {
				t.Errorf("got %v, want unknown_column", err)
			}
			untouched("after a failed statement")
			_, err = export.Export(context.Background(), db, "DELETE FROM Track", out, export.Options{Force: true})
			if engine.ErrorCode(err) != engine.CodeRefused {
				t.Errorf("got %v, want refused", err)
			}
			untouched("after a refused statement")
			// With --force, a cancelled export leaves it alone.
			ctx, cancel := context.WithCancel(context.Background())
			_, err = export.Export(ctx, db, endless, out, export.Options{Force: true,
				Progress: func(export.Progress) { cancel() }})
			if engine.ErrorCode(err) != engine.CodeCancelled {
				t.Errorf("got %v, want cancelled", err)
			}
			untouched("after a cancelled export")
			// A timeout too.
			_, err = export.Export(context.Background(), db, endless, out, export.Options{Force: true, Timeout: 300 * time.Millisecond})
			if engine.ErrorCode(err) != engine.CodeTimeout {
				t.Errorf("got %v, want timeout", err)
			}
			untouched("after a timeout")
			// With --force, a good export replaces it.
			rep, err := export.Export(context.Background(), db, "SELECT 1 AS one", out, export.Options{Force: true})
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := os.ReadFile(out); string(got) == string(old) || rep.Path != out {
				t.Errorf("not replaced (report path %s)", rep.Path)
			}
			if names := listDir(t, dir); len(names) != 1 {
				t.Errorf("files in the folder %v", names)
			}
		})
	}
}

func TestMissingFolder(t *testing.T) {
	db := demo(t)
	dir := t.TempDir()
	for _, out := range []string{filepath.Join(dir, "nope", "out.xlsx"), filepath.Join(dir, "nope", "out.csv")} {
		_, err := export.Export(context.Background(), db, "SELECT 1", out, export.Options{})
		if e := engine.AsError(err); e == nil || e.Code != engine.CodeExport || !strings.Contains(e.Message, "does not exist") {
			t.Errorf("%s: got %v, want an export error", out, err)
		}
	}
	// A folder where the file should be.
	if err := os.Mkdir(filepath.Join(dir, "x.csv"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := export.Export(context.Background(), db, "SELECT 1", filepath.Join(dir, "x.csv"), export.Options{Force: true})
	if engine.ErrorCode(err) != engine.CodeExport {
		t.Errorf("folder as the file: got %v, want an export error", err)
	}
	// A folder that cannot be written.
	if os.Geteuid() != 0 {
		ro := filepath.Join(dir, "ro")
		os.Mkdir(ro, 0o555)
		_, err := export.Export(context.Background(), db, "SELECT 1", filepath.Join(ro, "a.csv"), export.Options{})
		if engine.ErrorCode(err) != engine.CodeExport {
			t.Errorf("read-only folder: got %v, want an export error", err)
		}
	}
}

// TestCancel: cancelling from Progress stops the export between rows and
// leaves nothing behind.
func TestCancel(t *testing.T) {
	db := demo(t)
	for _, format := range []string{"xlsx", "csv"} {
		t.Run(format, func(t *testing.T) {
			dir := t.TempDir()
			ctx, cancel := context.WithCancel(context.Background())
			var calls []export.Progress
			start := time.Now()
			_, err := export.Export(ctx, db, endless, filepath.Join(dir, "c."+format), export.Options{
				Progress: func(p export.Progress) {
					calls = append(calls, p)
					if len(calls) == 3 {
						cancel()
					}
				}})
			if engine.ErrorCode(err) != engine.CodeCancelled {
				t.Fatalf("got %v, want cancelled", err)
			}
			if names := listDir(t, dir); len(names) != 0 {
				t.Errorf("files left: %v", names)
			}
			if len(calls) != 3 {
				t.Errorf("progress called %d times after the cancel, want 3 calls in all", len(calls))
			}
			if el := time.Since(start); el > 2*time.Second {
				t.Errorf("took %s to stop", el)
			}
			// At most ~10 calls a second, rows and bytes growing.
			for i := 1; i < len(calls); i++ {
				if calls[i].Rows <= calls[i-1].Rows || calls[i].Bytes <= calls[i-1].Bytes {
					t.Errorf("progress %v then %v", calls[i-1], calls[i])
				}
			}
			if el := time.Since(start); float64(len(calls)) > el.Seconds()*10+1 {
				t.Errorf("%d calls in %s", len(calls), el)
			}
		})
	}
}

// TestProgressFinal: the last call gives the rows and the file's size.
func TestProgressFinal(t *testing.T) {
	db := demo(t)
	for _, format := range []string{"xlsx", "csv"} {
		out := filepath.Join(t.TempDir(), "p."+format)
		var last export.Progress
		rep, err := export.Export(context.Background(), db, "SELECT * FROM Track", out, export.Options{Progress: func(p export.Progress) { last = p }})
		if err != nil {
			t.Fatal(err)
		}
		st, _ := os.Stat(out)
		if last.Rows != 3503 || last.Bytes != st.Size() || rep.Rows != 3503 {
			t.Errorf("%s: last progress %+v, file %d bytes, report %d rows", format, last, st.Size(), rep.Rows)
		}
		// The mode any new file gets (0666 less the umask), not a temporary file's 0600.
		ref := filepath.Join(filepath.Dir(out), "ref")
		rf, _ := os.Create(ref)
		rf.Close()
		rst, _ := os.Stat(ref)
		if st.Mode().Perm() != rst.Mode().Perm() {
			t.Errorf("%s: mode %v, want %v", format, st.Mode().Perm(), rst.Mode().Perm())
		}
	}
}

func TestEmptyResult(t *testing.T) {
	db := demo(t)
	for _, format := range []string{"xlsx", "csv"} {
		out := filepath.Join(t.TempDir(), "e."+format)
		rep, err := export.Export(context.Background(), db, "SELECT Name, Milliseconds FROM Track WHERE 0", out, export.Options{Chart: map[string]string{"xlsx": "auto"}[format]})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Rows != 0 || len(rep.Columns) != 2 {
			t.Errorf("%s: report %+v", format, rep)
		}
		if format == "csv" {
			if data, _ := os.ReadFile(out); string(data) != "Name,Milliseconds\r\n" {
				t.Errorf("csv: %q", data)
			}
			continue
		}
		f := openXLSX(t, out)
		if rows := rawRows(t, f, "Data"); len(rows) != 1 || strings.Join(rows[0], ",") != "Name,Milliseconds" {
			t.Errorf("xlsx: %q", rows)
		}
		if !strings.Contains(strings.Join(rep.Warnings, "\n"), "no rows: no chart drawn") {
			t.Errorf("warnings %q", rep.Warnings)
		}
	}
}
