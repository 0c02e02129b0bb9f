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
	// A header row or a range chosen says where the table starts: nothing
	// is detected above it.
	chosen := s.headerRow != 0 || s.rng.set()
	i := 0
	var group []string
	if !chosen {
		i = s.skipTitles(head)
		if group = groupTitles(head, i); group != nil {
			i++
		}
	}
	header, i := s.takeHeader(head, i, chosen)

	// Column names, with their group titles.
	width := len(header)
	if !s.headered {
		for _, r := range head[i:] {
			width = max(width, len(r.raw))
		}
	}
	groups := spreadGroups(header, group, width)
	s.makeColumns(header, groups, head[i:])

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

// text is cell c as Excel shows it (as stored in a row not sampled).
func (r headRow) text(c int) string {
	if c < len(r.fmt) && r.fmt != nil {
		return r.fmt[c]
	}
	if c < len(r.raw) {
		return r.raw[c]
	}
	return ""
}

// skipTitles skips the title rows, rows of one cell above the first row of
// several (among the first ten), with a warning that quotes them; it
// returns the index of the first row after them.
func (s *sheetReader) skipTitles(head []headRow) int {
	for j := 0; j < len(head) && j <= 10; j++ {
		if nonEmptyCount(head[j].raw) < 2 {
			continue
		}
		if j > 0 {
			var titles []string
			for _, t := range head[:j] {
				for c := range t.raw {
					if strings.TrimSpace(t.raw[c]) != "" {
						titles = append(titles, fmt.Sprintf("row %d %q", t.num, strings.TrimSpace(t.text(c))))
					}
				}
			}
			s.warn("%s above the header %s skipped as a title: %s", plural(j, "row", "rows"),
				map[bool]string{true: "was", false: "were"}[j == 1], strings.Join(titles, ", "))
		}
		return j
	}
	return 0
}

// groupTitles returns head[i] as a row of group titles (merged cells over
// several columns) above the row of names, nil when it is not one: text
// over text, at most half as many cells, most of them followed by an empty
// cell over a name (the merge's span).
func groupTitles(head []headRow, i int) []string {
	if i+1 >= len(head) || head[i+1].num != head[i].num+1 || !isTextRow(head[i].raw) || !isTextRow(head[i+1].raw) {
		return nil
	}
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
	if g < 2 || 2*g > h || spans < 1 || 2*(spans+last) < g {
		return nil
	}
	group := make([]string, len(head[i].raw))
	for c := range group {
		group[c] = strings.TrimSpace(head[i].text(c))
	}
	return group
}

// takeHeader takes head[i] as the header row, unless the sheet has none
// or (detected) it holds only numbers, which are data; it returns the
// header's cells (nil without one) and the index of the first data row,
// and warns of the rows skipped above the table.
func (s *sheetReader) takeHeader(head []headRow, i int, chosen bool) ([]string, int) {
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
			header[c] = r.text(c)
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
	return header, i
}

// spreadGroups gives each of the width columns its group title: a title
// covers the columns under it up to the next title or the first without
// a header, and one over an empty header is that column's name (set in
// header).
func spreadGroups(header, group []string, width int) []string {
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
	return groups
}

// makeColumns makes the sheet's columns, as many as groups has, with
// their headers and names, and their kinds (date and boolean cells) from
// the sampled data rows.
func (s *sheetReader) makeColumns(header, groups []string, data []headRow) {
	width := len(groups)
	kindWidth := width
	for _, r := range data {
		kindWidth = max(kindWidth, len(r.raw))
	}
	s.kinds = detectKinds(data, kindWidth, s.date1904)

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
