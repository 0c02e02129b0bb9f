package export_test

import (
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/xuri/excelize/v2"

	"querent/engine/export"
)

func TestSheetName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Data", "Data"},
		{"", "Sheet"},
		{"a:b\\c/d?e*f[g]h", "a_b_c_d_e_f_g_h"},
		{"'quoted'", "quoted"},
		{"''", "Sheet"},
		{"it's", "it's"},
		{"tab\there", "tab_here"},
		{strings.Repeat("x", 40), strings.Repeat("x", 31)},
		{strings.Repeat("x", 30) + "'y", strings.Repeat("x", 30)}, // cut, then the trailing ' goes
		{strings.Repeat("😀", 16), strings.Repeat("😀", 15)},        // 2 UTF-16 units each: 30 ≤ 31 < 32
		{"History", "History_"},
		{"history", "history_"},
		{"Ventes 2024 – Q1 (€)", "Ventes 2024 – Q1 (€)"},
	}
	f := excelize.NewFile()
	defer f.Close()
	for _, tt := range tests {
		got := export.SheetName(tt.in)
		if got != tt.want {
			t.Errorf("SheetName(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if n := len(utf16.Encode([]rune(got))); n > 31 {
			t.Errorf("SheetName(%q): %d UTF-16 units", tt.in, n)
		}
		// excelize (which checks Excel's rules) accepts it.
		if _, err := f.NewSheet(got); err != nil {
			t.Errorf("SheetName(%q) = %q: excelize refuses it: %v", tt.in, got, err)
		}
	}
}

func TestUniqueSheetName(t *testing.T) {
	taken := []string{"Data", "Data 2", "CHART", strings.Repeat("y", 31)}
	tests := []struct{ in, want string }{
		{"Provenance", "Provenance"},
		{"data", "data 3"},
		{"Chart", "Chart 2"},
		{strings.Repeat("y", 40), strings.Repeat("y", 29) + " 2"},
	}
	for _, tt := range tests {
		if got := export.UniqueSheetName(tt.in, taken); got != tt.want {
			t.Errorf("UniqueSheetName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
