package ingest

import (
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"

	"querent/engine"
)

// The range of cells a sheet is read from (Options.Range).

// cellRange is a range of cells, 1-based and inclusive; 0 leaves a side
// open (to the sheet's edge).
type cellRange struct {
	c0, c1, r0, r1 int
	text           string
}

func (r cellRange) set() bool { return r.text != "" }

// parseRange reads "B3:H200", "B3:H" (to the last row), "B:H" (whole
// columns) or "3:200" (whole rows), with or without $ signs.
func parseRange(s string) (cellRange, error) {
	t := strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(s), "$", ""))
	if t == "" {
		return cellRange{}, nil
	}
	bad := func() (cellRange, error) {
		return cellRange{}, engine.Errorf(engine.CodeUsage, "%q is not a cell range", s).
			WithHint("write it as Excel does: B3:H200, B3:H (to the last row) or B:H (whole columns)")
	}
	a, b, ok := strings.Cut(t, ":")
	if !ok {
		return bad()
	}
	side := func(x string) (col, row int, ok bool) {
		i := 0
		for i < len(x) && x[i] >= 'A' && x[i] <= 'Z' {
			i++
		}
		if i > 0 {
			n, err := excelize.ColumnNameToNumber(x[:i])
			if err != nil {
				return 0, 0, false
			}
			col = n
		}
		if i < len(x) {
			n, err := strconv.Atoi(x[i:])
			if err != nil || n < 1 || n > excelize.TotalRows {
				return 0, 0, false
			}
			row = n
		}
		return col, row, x != ""
	}
	c0, r0, ok0 := side(a)
	c1, r1, ok1 := side(b)
	if !ok0 || !ok1 || (c0 == 0) != (c1 == 0) {
		return bad()
	}
	if c1 > 0 && c1 < c0 || r1 > 0 && r1 < r0 {
		return cellRange{}, engine.Errorf(engine.CodeUsage, "the cell range %q ends before it starts", s).
			WithHint("write its top-left cell first, as in B3:H200")
	}
	return cellRange{c0: c0, c1: c1, r0: r0, r1: r1, text: t}, nil
}

// cut keeps a row's cells inside the range's columns.
func (r cellRange) cut(cells []string) []string {
	if r.c0 <= 1 && r.c1 == 0 {
		return cells
	}
	from := max(r.c0, 1) - 1
	if from >= len(cells) {
		return cells[:0]
	}
	if r.c1 > 0 && r.c1 < len(cells) {
		return cells[from:r.c1]
	}
	return cells[from:]
}

// rowIn says where row num is: before the range (-1), in it (0), after it (1).
func (r cellRange) rowIn(num int) int {
	switch {
	case r.r0 > 0 && num < r.r0:
		return -1
	case r.r1 > 0 && num > r.r1:
		return 1
	}
	return 0
}

// describe writes the range of cells read, from the first column and row
// to the last.
func describeRange(c0, c1, r0, r1 int) string {
	a, _ := excelize.CoordinatesToCellName(max(c0, 1), max(r0, 1))
	b, _ := excelize.CoordinatesToCellName(max(c1, 1), max(r1, 1))
	return a + ":" + b
}
