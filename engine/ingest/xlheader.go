package ingest

import (
	"fmt"
	"strconv"
	"strings"
)

// A sheet's header: title rows and a row of group titles above it, a row
// of numbers that is data, and the columns' names.

// analyse finds the header in the first rows, and the date and boolean
// columns, then adds the first rows' data.
func (s *sheetReader) analyse(head []headRow) error {
	text := func(r headRow, c int) string {
		if c < len(r.fmt) && r.fmt != nil {
			return r.fmt[c]
		}
		if c < len(r.raw) {
			return r.raw[c]
		}
		return ""
	}
	i := 0
	// A header row or a range chosen says where the table starts: nothing
	// is detected above it.
	chosen := s.headerRow != 0 || s.rng.set()
	// Title rows: rows of one cell above the first row of several.
	for j := 0; j < len(head) && j <= 10 && !chosen; j++ {
		if nonEmptyCount(head[j].raw) >= 2 {
			if j > 0 {
				var titles []string
				for _, t := range head[:j] {
					for c := range t.raw {
						if strings.TrimSpace(t.raw[c]) != "" {
							titles = append(titles, fmt.Sprintf("row %d %q", t.num, strings.TrimSpace(text(t, c))))
						}
					}
				}
				s.warn("%s above the header %s skipped as a title: %s", plural(j, "row", "rows"),
					map[bool]string{true: "was", false: "were"}[j == 1], strings.Join(titles, ", "))
			}
			i = j
			break
		}
	}
	// A row of group titles (merged cells over several columns) above the
	// row of names: text over text, at most half as many cells, most of
	// them followed by an empty cell over a name (the merge's span).
	var group []string
	if !chosen && i+1 < len(head) && head[i+1].num == head[i].num+1 &&
		isTextRow(head[i].raw) && isTextRow(head[i+1].raw) {
		gr, nr := head[i].raw, head[i+1].raw
		g, h := nonEmptyCount(gr), nonEmptyCount(nr)
		spans, last := 0, 0
		for c := range gr {
			if strings.TrimSpace(gr[c]) == "" || c+1 >= len(nr) || strings.TrimSpace(nr[c+1]) == "" {
				continue
			}
			switch {
			case c+1 < len(gr) && strings.TrimSpace(gr[c+1]) == "":
				spans++
			case c+1 >= len(gr):
				last++ // the last title, over the row's last names
			}
		}
		if g >= 2 && 2*g <= h && spans >= 1 && 2*(spans+last) >= g {
			group = make([]string, len(head[i].raw))
			for c := range group {
				group[c] = strings.TrimSpace(text(head[i], c))
			}
			i++
		}
	}

	var header []string
	if i < len(head) {
		s.firstNum = head[i].num
	}
	switch {
	case s.headerRow < 0:
	case i < len(head) && (chosen || !isNumberRow(head[i].raw)):
		r := head[i]
		header = make([]string, len(r.raw))
		for c := range header {
			header[c] = text(r, c)
		}
		s.headered = true
		s.headerNum = r.num
		i++
	case i < len(head):
		s.warn("row %d holds only numbers, so it was read as data: the sheet has no header and its columns are named column_1, column_2…", head[i].num)
	}
	if s.skipped > 0 {
		what := "the table"
		if s.headered {
			what = fmt.Sprintf("the header (row %d)", s.headerNum)
		}
		s.warn("%s above %s skipped", plural(s.skipped, "row", "rows"), what)
	}

	// Column names, with their group titles.
	width := len(header)
	if !s.headered {
		for _, r := range head[i:] {
			width = max(width, len(r.raw))
		}
	}
	groups := make([]string, width)
	for c := 0; c < len(group) && c < width; c++ {
		g := group[c]
		if g == "" {
			continue
		}
		if strings.TrimSpace(header[c]) == "" {
			header[c] = g // a name merged over both header rows
			continue
		}
		for k := c; k < width && strings.TrimSpace(header[k]) != "" && (k == c || k >= len(group) || group[k] == ""); k++ {
			groups[k] = g
		}
	}

	// Date and boolean columns, from the sampled data rows.
	kindWidth := width
	for _, r := range head[i:] {
		kindWidth = max(kindWidth, len(r.raw))
	}
	s.kinds = detectKinds(head[i:], kindWidth, s.date1904)

	s.cols = make([]*xlsxColumn, width)
	for c := range s.cols {
		h := ""
		if c < len(header) {
			h = header[c]
		}
		col := s.newColumn(c)
		col.header, col.original = h, h
		if groups[c] != "" {
			col.original = groups[c] + " / " + h
		}
		s.cols[c] = col
	}
	s.nameColumns(groups)
	s.wideFrom = width

	sp, err := newSpillFile(s.maxTemp)
	if err != nil {
		return s.spillError(err)
	}
	s.spill = sp
	for _, r := range head[i:] {
		if err := s.addRow(r.num, r.raw); err != nil {
			return err
		}
	}
	return nil
}

// nameColumns sets each column's name text: its header, with its group
// title in front when the header alone repeats another's.
func (s *sheetReader) nameColumns(groups []string) {
	base := make([]string, len(s.cols))
	count := map[string]int{}
	for c, col := range s.cols {
		if strings.TrimSpace(col.header) == "" {
			continue
		}
		base[c] = strings.ToLower(ColumnNames([]string{col.header})[0])
		count[base[c]]++
	}
	for c, col := range s.cols {
		col.nameText = col.header
		if c < len(groups) && groups[c] != "" && base[c] != "" && count[base[c]] > 1 {
			col.nameText = groups[c] + " " + col.header
		}
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

func isNumber(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" {
		return false
	}
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

// isTextRow: every non-empty cell is text, none a number.
func isTextRow(cells []string) bool {
	for _, c := range cells {
		if strings.TrimSpace(c) != "" && isNumber(c) {
			return false
		}
	}
	return true
}

// isNumberRow: every non-empty cell is a number.
func isNumberRow(cells []string) bool {
	n := 0
	for _, c := range cells {
		if strings.TrimSpace(c) == "" {
			continue
		}
		if !isNumber(c) {
			return false
		}
		n++
	}
	return n > 0
}
