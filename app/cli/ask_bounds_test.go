package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// askDoc is the part of the answer document these tests read.
type askDoc struct {
	RowCount  int      `json:"row_count"`
	Truncated bool     `json:"truncated"`
	Warnings  []string `json:"warnings"`
	Errors    []struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"errors"`
}

// TestAskInputBounds reproduces issue 11 §6: the sub-agent request's
// timeout_s and max_rows are clamped to the ceilings, with a warning in
// the answer, and a negative or non-numeric value is a usage error that
// still prints the JSON document.
func TestAskInputBounds(t *testing.T) {
	const q = `"question": "SELECT TrackId FROM Track", "connection": {"host": ""}`
	tests := []struct {
		name     string
		extra    string
		code     int
		warning  string // in warnings; "" for none
		errType  string // errors[0].type; "" for none
		rowCount int
	}{
		{"timeout 9e9 s", `"timeout_s": 9e9`, 0, "timeout_s 9e9 is longer than the 10 minutes", "", 1000},
		{"timeout 1e300 s", `"timeout_s": 1e300`, 0, "timeout_s 1e300 is longer than the 10 minutes", "", 1000},
		{"timeout over 10 min", `"timeout_s": 601`, 0, "timeout_s 601 is longer than the 10 minutes", "", 1000},
		{"timeout 10 min", `"timeout_s": 600`, 0, "", "", 1000},
		{"timeout negative", `"timeout_s": -1`, 2, "", "usage", 0},
		{"timeout as text", `"timeout_s": "NaN"`, 2, "", "usage", 0},
		{"timeout infinite", `"timeout_s": 1e400`, 2, "", "usage", 0},
		{"max_rows int64 max", `"max_rows": 9223372036854775807`, 0, "max_rows 9223372036854775807 is more than the 1,000,000 rows", "", 3503},
		{"max_rows 1e300", `"max_rows": 1e300`, 0, "max_rows 1e300 is more than the 1,000,000 rows", "", 3503},
		{"max_rows 1,000,000", `"max_rows": 1000000`, 0, "", "", 3503},
		{"max_rows 10", `"max_rows": 10`, 0, "", "", 10},
		{"max_rows 0: the default", `"max_rows": 0`, 0, "", "", 1000},
		{"max_rows negative", `"max_rows": -1`, 2, "", "usage", 0},
		{"max_rows fraction", `"max_rows": 2.5`, 2, "", "usage", 0},
		{"max_rows as text", `"max_rows": "10"`, 2, "", "usage", 0},
		{"max_rows infinite", `"max_rows": -1e400`, 2, "", "usage", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := run(t, "{"+q+", "+tt.extra+"}", "ask", "--input", "-")
			var doc askDoc
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatalf("exit %d, not the JSON document: %v\n%s\n%s", code, err, out, errs)
			}
			if code != tt.code {
				t.Errorf("exit %d, want %d: %s", code, tt.code, out)
			}
			warned := strings.Join(doc.Warnings, "\n")
			if tt.warning != "" && !strings.Contains(warned, tt.warning) || tt.warning == "" && warned != "" {
				t.Errorf("warnings %q, want %q", doc.Warnings, tt.warning)
			}
			switch {
			case tt.errType == "" && len(doc.Errors) != 0:
				t.Errorf("errors %+v", doc.Errors)
			case tt.errType != "" && (len(doc.Errors) == 0 || doc.Errors[0].Type != tt.errType):
				t.Errorf("errors %+v, want %s", doc.Errors, tt.errType)
			}
			if doc.RowCount != tt.rowCount {
				t.Errorf("row_count %d, want %d", doc.RowCount, tt.rowCount)
			}
		})
	}
}

// TestRowAndTimeoutFlagBounds: --max-rows and --timeout of sql, ask and
// export: too large is lowered with a warning, negative or not a number
// is refused.
func TestRowAndTimeoutFlagBounds(t *testing.T) {
	tests := []struct {
		args    []string
		code    int
		warning string // in the JSON warnings (sql, ask) or on stderr
		stderr  string
	}{
		{[]string{"sql", "--format", "json", "--max-rows", "9223372036854775807", "SELECT TrackId FROM Track"}, 0, "--max-rows 9223372036854775807 is more than the 1,000,000 rows", ""},
		{[]string{"sql", "--format", "json", "--max-rows", "5000000", "SELECT 1"}, 0, "--max-rows 5000000 is more than the 1,000,000 rows", ""},
		{[]string{"sql", "--format", "json", "--timeout", "9e9", "SELECT 1"}, 0, "--timeout is longer than the 10 minutes", ""},
		{[]string{"sql", "--format", "json", "--timeout", "1e300", "SELECT 1"}, 0, "--timeout is longer than the 10 minutes", ""},
		{[]string{"sql", "--format", "json", "--timeout", "11m", "SELECT 1"}, 0, "--timeout is longer than the 10 minutes", ""},
		{[]string{"sql", "--timeout", "NaN", "SELECT 1"}, 2, "", "finite"},
		{[]string{"sql", "--timeout", "Inf", "SELECT 1"}, 2, "", "finite"},
		{[]string{"sql", "--timeout", "-1", "SELECT 1"}, 2, "", "more than 0"},
		{[]string{"sql", "--max-rows", "-1", "SELECT 1"}, 2, "", "at least 1"},
		{[]string{"ask", "--format", "json", "--max-rows", "9223372036854775807", "SELECT 1"}, 0, "--max-rows 9223372036854775807 is more than the 1,000,000 rows", ""},
		{[]string{"ask", "--format", "json", "--timeout", "1e300", "SELECT 1"}, 0, "--timeout is longer than the 10 minutes", ""},
		{[]string{"ask", "--timeout", "NaN", "SELECT 1"}, 2, "", "finite"},
		{[]string{"export", "--max-rows", "-1", "--sql", "SELECT 1", "--out", "x.csv"}, 2, "", "must not be negative"},
		{[]string{"export", "--timeout", "NaN", "--sql", "SELECT 1", "--out", "x.csv"}, 2, "", "finite"},
	}
	for _, tt := range tests {
		code, out, errs := run(t, "", tt.args...)
		if code != tt.code || !strings.Contains(errs, tt.stderr) {
			t.Errorf("%v: exit %d, %s; want %d with %q", tt.args, code, errs, tt.code, tt.stderr)
			continue
		}
		if tt.warning != "" {
			var doc askDoc
			if err := json.Unmarshal([]byte(out), &doc); err != nil || !strings.Contains(strings.Join(doc.Warnings, "\n"), tt.warning) {
				t.Errorf("%v: warnings %q, want %q (%v)", tt.args, doc.Warnings, tt.warning, err)
			}
		}
	}
}
