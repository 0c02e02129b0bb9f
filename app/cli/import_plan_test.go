package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"querent/engine/imports"
)

const messyCSV = "../../../shared/data/messy/csv/"
const messyXLSX = "../../../shared/data/messy/xlsx/"

func messy(t *testing.T, path string) string {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		t.Skipf("shared data not available: %v", err)
	}
	abs, _ := filepath.Abs(path)
	return abs
}

func readPlan(t *testing.T, out string) imports.Plan {
	t.Helper()
	var p imports.Plan
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatalf("the preview is not a plan: %v\n%s", err, out)
	}
	return p
}

func planColumn(t *testing.T, tb imports.PlanTable, name string) imports.PlanColumn {
	t.Helper()
	for _, c := range tb.Columns {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no column %s in the plan", name)
	return imports.PlanColumn{}
}

// --preview writes nothing, not even with --db, and says what writing
// would do.
func TestImportPreviewWritesNothing(t *testing.T) {
	cab := messy(t, messyCSV+"538_cabinet-turnover.csv")
	dir := t.TempDir()
	db := filepath.Join(dir, "out.sqlite")
	code, out, errs := runImport(t, "import", "--preview", "--db", db, "--column", "start_date:date:null-bad", cab)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"Preview of 1 table (nothing written to " + db, "t_538_cabinet_turnover (538_cabinet-turnover.csv): 379 rows, create",
		"read: utf-8-bom, delimiter \",\", header on line 1", "start_date     DATE*", `line 58 "Aug. 1981"`, "bad values stored as NULL",
		"most values fit DATE", "left out: no header and no values", "first 10 rows as they will be stored", "1977-01-21"} {
		if !strings.Contains(out, want) {
			t.Errorf("preview lacks %q:\n%s", want, out)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("the preview wrote %v", entries)
	}
	// Without --db there is nothing to check, and that is fine.
	code, out, _ = runImport(t, "import", "--preview", "--format", "json", cab)
	p := readPlan(t, out)
	if code != 0 || p.PlanVersion != 1 || p.Database != "" || p.Tables[0].Action != "" || len(p.Tables[0].PreviewRows) != imports.PreviewRows {
		t.Errorf("preview without --db: exit %d, %+v", code, p)
	}
	// An import into an existing table is an error the preview shows.
	if code, _, errs := runImport(t, "import", "--db", db, cab); code != 0 {
		t.Fatalf("import: %s", errs)
	}
	sum := fileSum(t, db)
	code, out, errs = runImport(t, "import", "--preview", "--db", db, "--format", "json", cab)
	p = readPlan(t, out)
	if code != 1 || len(p.Errors) != 1 || !strings.Contains(p.Errors[0].Message, "already has a table named t_538_cabinet_turnover") || len(p.Tables) != 1 {
		t.Errorf("preview into an existing table: exit %d, %+v %s", code, p.Errors, errs)
	}
	code, out, _ = runImport(t, "import", "--preview", "--db", db, "--replace", "--format", "json", cab)
	if p = readPlan(t, out); code != 0 || p.Tables[0].Action != "replace" {
		t.Errorf("preview --replace: exit %d, action %q", code, p.Tables[0].Action)
	}
	if fileSum(t, db) != sum {
		t.Errorf("the previews changed the database")
	}
}

func fileSum(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Bad values stored as NULL are counted in the report and recorded in
// _querent_imports, so NULLs that were bad values can be told from missing
// ones; the policy error stops the import before anything is written.
func TestImportNullBad(t *testing.T) {
	cab := messy(t, messyCSV+"538_cabinet-turnover.csv")
	db := filepath.Join(t.TempDir(), "out.sqlite")
	code, out, errs := runImport(t, "import", "--db", db, "--format", "json", "--table", "cabinet",
		"--column", "start_date:date:null-bad", "--column", "end_date:date:null-bad", "--rename", "length=days", "--skip", "gender", cab)
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	var rep imports.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	tb := rep.Tables[0]
	if tb.BadValues != 8+32 || tb.Encoding != "utf-8-bom" || tb.HeaderRow != 1 || len(tb.Skipped) != 3 || !tb.Skipped[0].ByAnalyst {
		t.Errorf("report: bad %d, layout %+v, skipped %+v", tb.BadValues, tb.Layout, tb.Skipped)
	}
	var sd imports.Column
	for _, c := range tb.Columns {
		if c.Name == "start_date" {
			sd = c
		}
	}
	if sd.Type != "DATE" || sd.BadValues != 8 || sd.BadAt[0].Line != 58 || sd.BadAt[0].Value != "Aug. 1981" || sd.Converted != 371 {
		t.Errorf("start_date: %+v", sd)
	}
	var doc map[string]any
	json.Unmarshal([]byte(out), &doc)
	table := doc["tables"].([]any)[0].(map[string]any)
	for _, k := range []string{"encoding", "delimiter", "header_row", "range", "skipped", "overridden", "bad_values"} {
		if _, ok := table[k]; !ok {
			t.Errorf("table document lacks %q", k)
		}
	}
	// The rows, and what _querent_imports says about their NULLs.
	code, out, errs = run(t, "", "sql", "--db", db, "--format", "csv",
		"SELECT count(*) - count(start_date), count(*) - count(end_date), typeof(days) FROM cabinet")
	if code != 0 || out != "count(*) - count(start_date),count(*) - count(end_date),typeof(days)\n8,32,text\n" {
		t.Errorf("rows: exit %d %q %s", code, out, errs)
	}
	code, out, errs = run(t, "", "sql", "--db", db, "--format", "json",
		"SELECT bad_values, json_extract(details_json, '$.skipped[0].name') AS skipped, "+
			"(SELECT json_extract(value, '$.bad_values') FROM json_each(columns_json) WHERE json_extract(value, '$.name') = 'start_date') AS sd, "+
			"(SELECT json_extract(value, '$.bad_at[0].value') FROM json_each(columns_json) WHERE json_extract(value, '$.name') = 'start_date') AS first "+
			"FROM _querent_imports")
	if code != 0 || !strings.Contains(out, `"bad_values": 40`) || !strings.Contains(out, `"skipped": "gender"`) ||
		!strings.Contains(out, `"sd": 8`) || !strings.Contains(out, `"first": "Aug. 1981"`) {
		t.Errorf("_querent_imports: exit %d %s %s", code, out, errs)
	}
	// The schema tells them apart too (the model's prompt shows it).
	code, out, _ = run(t, "", "schema", "--db", db, "--format", "json")
	if code != 0 || !strings.Contains(out, `"bad_values": 8`) {
		t.Errorf("schema: exit %d, no bad_values", code)
	}

	// The policy error: nothing written.
	db2 := filepath.Join(t.TempDir(), "stop.sqlite")
	code, _, errs = runImport(t, "import", "--db", db2, "--column", "start_date:date:error", cab)
	if code != 1 || !strings.Contains(errs, `line 58 holds "Aug. 1981", which is not a date (8 values in all`) || !strings.Contains(errs, "null-bad") {
		t.Errorf("policy error: exit %d %s", code, errs)
	}
	if _, err := os.Stat(db2); !os.IsNotExist(err) {
		t.Errorf("the stopped import left %s", db2)
	}
	if entries, _ := os.ReadDir(filepath.Dir(db2)); len(entries) != 0 {
		t.Errorf("the stopped import left %v", entries)
	}
}

// A plan written by --preview --format json replays the same import on
// next month's file: same table, names, types and policies.
func TestImportPlanReplay(t *testing.T) {
	src := fileSum(t, messy(t, messyCSV+"538_cabinet-turnover.csv"))
	dir := t.TempDir()
	jan := filepath.Join(dir, "cabinet-jan.csv")
	os.WriteFile(jan, []byte(src), 0o644)
	db := filepath.Join(dir, "cabinet.sqlite")
	code, out, errs := runImport(t, "import", "--preview", "--format", "json", "--db", db, "--table", "cabinet",
		"--column", "start_date:date:null-bad", "--rename", "Length=days", "--skip", "#8", "--column", "#9:text", jan)
	if code != 0 {
		t.Fatalf("preview: exit %d %s", code, errs)
	}
	planPath := filepath.Join(dir, "plan.json")
	os.WriteFile(planPath, []byte(out), 0o644)

	// Replayed on the same file, with no flags but --plan.
	code, out, errs = runImport(t, "import", "--plan", planPath, "--format", "json")
	if code != 0 {
		t.Fatalf("replay: exit %d %s %s", code, out, errs)
	}
	var rep imports.Report
	json.Unmarshal([]byte(out), &rep)
	if rep.Database != db || rep.Tables[0].Name != "cabinet" || rep.Tables[0].BadValues != 8 {
		t.Fatalf("replay report: %+v", rep)
	}
	want := columnsOf(rep.Tables[0])
	if !slices.Equal(want, []string{"president TEXT", "position TEXT", "appointee TEXT", "start_date DATE", "end_date TEXT",
		"days TEXT", "departure_day INTEGER", "column_9 TEXT"}) {
		t.Errorf("replayed columns %q", want)
	}

	// Next month: more rows, other odd values, a new column at the end and
	// another name; appended into the same table with the same choices.
	lines := strings.Split(strings.TrimRight(src, "\r\n"), "\r\n")
	lines[0] += ",notes"
	for i := 1; i < len(lines); i++ {
		lines[i] += ","
	}
	lines = append(lines, "Biden,Chief of Staff,Ron Klain,1/20/21,TBD,,,Male,,,new", "Biden,OMB Director,Shalanda Young,3/17/22,,,,Female,,,")
	feb := filepath.Join(dir, "cabinet-feb.csv")
	os.WriteFile(feb, []byte(strings.Join(lines, "\r\n")+"\r\n"), 0o644)
	code, out, errs = runImport(t, "import", "--plan", planPath, "--append", "--format", "json", feb)
	if code != 1 || !strings.Contains(out, "columns differ") {
		t.Errorf("appending a file with a new column: exit %d %s %s", code, out, errs)
	}
	// Without the new column the append goes through.
	code, out, errs = runImport(t, "import", "--plan", planPath, "--append", "--skip", "notes", "--format", "json", feb)
	if code != 0 {
		t.Fatalf("replay on next month: exit %d %s %s", code, out, errs)
	}
	rep = imports.Report{}
	json.Unmarshal([]byte(out), &rep)
	if got := columnsOf(rep.Tables[0]); !slices.Equal(got, want) || rep.Tables[0].Action != "appended" || rep.Tables[0].Rows != 381 {
		t.Errorf("next month: %q, %s %d rows", got, rep.Tables[0].Action, rep.Tables[0].Rows)
	}
	if !strings.Contains(strings.Join(rep.Warnings, "\n"), "not in the plan, imported as detected: notes") {
		// notes is skipped on the command line: no warning is needed.
		if strings.Contains(strings.Join(rep.Warnings, "\n"), "notes") {
			t.Errorf("warnings %q", rep.Warnings)
		}
	}
	code, out, _ = run(t, "", "sql", "--db", db, "--format", "csv", "SELECT count(*) AS n, count(*) - count(start_date) AS bad, max(iif(appointee = 'Shalanda Young', start_date, NULL)) AS sy FROM cabinet")
	if code != 0 || out != "n,bad,sy\n760,16,2022-03-17\n" {
		t.Errorf("rows after two imports: %q", out)
	}

	// A plan that names a column the file lacks is an error.
	os.WriteFile(filepath.Join(dir, "short.csv"), []byte("president,position\nCarter,OMB\n"), 0o644)
	code, _, errs = runImport(t, "import", "--plan", planPath, "--db", filepath.Join(dir, "x.sqlite"), filepath.Join(dir, "short.csv"))
	if code != 2 || !strings.Contains(errs, `has no column "appointee"`) {
		t.Errorf("plan on a file without its columns: exit %d %s", code, errs)
	}
	// The plan describes one file: two inputs are an error.
	code, _, errs = runImport(t, "import", "--plan", planPath, jan, feb)
	if code != 2 || !strings.Contains(errs, "the plan describes 1 source files, but 2 were named") {
		t.Errorf("two inputs: exit %d %s", code, errs)
	}
	os.WriteFile(filepath.Join(dir, "bad.json"), []byte(`{"tables": []}`), 0o644)
	if code, _, errs = runImport(t, "import", "--plan", filepath.Join(dir, "bad.json"), jan); code != 2 || !strings.Contains(errs, "not a Querent import plan") {
		t.Errorf("not a plan: exit %d %s", code, errs)
	}
}

func columnsOf(t imports.ImportedTable) []string {
	var out []string
	for _, c := range t.Columns {
		out = append(out, c.Name+" "+c.Type)
	}
	return out
}

// XLSX: --header-row and --range on the shared workbook, and a plan that
// replays per sheet.
func TestImportXLSXLayoutFlags(t *testing.T) {
	book := messy(t, messyXLSX+"538_pollster-stats-full_2019.xlsx")
	code, out, errs := runImport(t, "import", "--preview", "--format", "json", "--sheet", "Results", "--range", "B2:E50",
		"--column", "#5:boolean", book)
	if code != 0 {
		t.Fatalf("exit %d %s", code, errs)
	}
	p := readPlan(t, out)
	tb := p.Tables[0]
	if tb.Range != "B2:E50" || tb.HeaderRow != 2 || tb.Rows != 48 || len(tb.Columns) != 4 || !slices.Contains(tb.Overridden, "range") {
		t.Errorf("range: %+v, %d rows, %d columns", tb.Layout, tb.Rows, len(tb.Columns))
	}
	if c := planColumn(t, tb, "ncpp_aapor_roper"); c.Position != 5 || c.Type != "BOOLEAN" {
		t.Errorf("column E: %+v", c)
	}
	code, out, errs = runImport(t, "import", "--preview", "--format", "json", "--sheet", "Description of Columns", "--header-row", "none", book)
	p = readPlan(t, out)
	if code != 0 || p.Tables[0].HeaderRow != 0 || p.Tables[0].Columns[0].Name != "column_1" || p.Tables[0].Rows != 26 {
		t.Errorf("no header: exit %d %+v %s", code, p.Tables[0].Layout, errs)
	}
	if code, _, errs := runImport(t, "import", "--preview", "--range", "B2", book); code != 2 || !strings.Contains(errs, "is not a cell range") {
		t.Errorf("bad range: exit %d %s", code, errs)
	}
	if code, _, errs := runImport(t, "import", "--preview", "--header-row", "x", book); code != 2 || !strings.Contains(errs, "header") {
		t.Errorf("bad header row: exit %d %s", code, errs)
	}
}

func TestParseColumnSpec(t *testing.T) {
	tests := []struct {
		in   string
		want imports.ColumnOverride
		err  bool
	}{
		{"start_date:date", imports.ColumnOverride{Column: "start_date", Type: "date"}, false},
		{"start_date:date:null-bad", imports.ColumnOverride{Column: "start_date", Type: "date", OnBad: "null"}, false},
		{"Primary %:REAL:error", imports.ColumnOverride{Column: "Primary %", Type: "REAL", OnBad: "error"}, false},
		{"Time: start:datetime", imports.ColumnOverride{Column: "Time: start", Type: "datetime"}, false},
		{"#4:integer:text", imports.ColumnOverride{Column: "#4", Type: "integer", OnBad: "text"}, false},
		{"start_date", imports.ColumnOverride{}, true},
		{"start_date:money", imports.ColumnOverride{}, true},
		{":date", imports.ColumnOverride{}, true},
	}
	for _, tt := range tests {
		got, err := parseColumnSpec(tt.in)
		if (err != nil) != tt.err || !tt.err && got != tt.want {
			t.Errorf("parseColumnSpec(%q) = %+v, %v", tt.in, got, err)
		}
	}
}
