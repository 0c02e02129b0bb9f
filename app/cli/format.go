package cli

import (
	"bufio"
	"encoding/base64"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode"

	"querent/engine/text"

	"querent/engine"
)

type tableOptions struct {
	// maxWidth cuts longer cells with … (in display columns).
	maxWidth int
}

// writeTable writes rows as an aligned table for people: numbers on the
// right, NULL shown as NULL (and text that reads "NULL" quoted, so the two
// never look alike), blobs by size, long values cut with ….
func writeTable(w io.Writer, cols []engine.Column, rows [][]engine.Value, o tableOptions) error {
	bw := bufio.NewWriter(w)
	n := len(cols)
	cells := make([][]string, len(rows))
	widths := make([]int, n)
	right := make([]bool, n)
	for i, c := range cols {
		widths[i] = displayWidth(c.Name)
		right[i] = true
	}
	for r, row := range rows {
		cells[r] = make([]string, n)
		for i := 0; i < n; i++ {
			var v engine.Value
			if i < len(row) {
				v = row[i]
			}
			s := cellText(v, o.maxWidth)
			cells[r][i] = s
			widths[i] = max(widths[i], displayWidth(s))
			switch v.(type) {
			case int64, float64, nil:
			default:
				right[i] = false
			}
		}
	}
	if len(rows) == 0 {
		for i := range right {
			right[i] = false
		}
	}
	line := func(vals []string, isHeader bool) {
		for i, s := range vals {
			if i > 0 {
				bw.WriteString("  ")
			}
			pad := strings.Repeat(" ", widths[i]-displayWidth(s))
			if right[i] && !isHeader {
				bw.WriteString(pad + s)
			} else if i < len(vals)-1 {
				bw.WriteString(s + pad)
			} else {
				bw.WriteString(s)
			}
		}
		bw.WriteByte('\n')
	}
	header := make([]string, n)
	rule := make([]string, n)
	for i, c := range cols {
		header[i] = c.Name
		rule[i] = strings.Repeat("-", widths[i])
	}
	line(header, true)
	line(rule, true)
	for _, r := range cells {
		line(r, false)
	}
	return bw.Flush()
}

// cellText renders one value for the table.
func cellText(v engine.Value, maxWidth int) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		if math.IsInf(x, 0) {
			if x > 0 {
				return "Infinity"
			}
			return "-Infinity"
		}
		return engine.FormatFloat(x)
	case []byte:
		if len(x) <= 8 {
			return fmt.Sprintf("x'%X'", x)
		}
		return fmt.Sprintf("<blob %d bytes>", len(x))
	case string:
		if x == "NULL" {
			return "'NULL'"
		}
		s := strings.Map(func(r rune) rune {
			switch r {
			case '\n':
				return '↵'
			case '\r':
				return -1
			case '\t':
				return ' '
			}
			if unicode.IsControl(r) {
				return '�'
			}
			return r
		}, x)
		return cut(s, maxWidth)
	}
	return fmt.Sprint(v)
}

// displayWidth is the number of terminal columns s takes.
func displayWidth(s string) int { return text.Width(s) }

// writeCSV writes rows as RFC 4180 CSV with a header: NULL as an empty
// field, blobs as base64, numbers as SQLite stored them.
func writeCSV(w io.Writer, cols []engine.Column, rows [][]engine.Value) error {
	cw := csv.NewWriter(w)
	header := make([]string, len(cols))
	for i, c := range cols {
		header[i] = c.Name
	}
	if err := cw.Write(header); err != nil {
		return err
	}
	rec := make([]string, len(cols))
	for _, row := range rows {
		for i := range rec {
			rec[i] = ""
			if i >= len(row) {
				continue
			}
			switch x := row[i].(type) {
			case nil:
			case int64:
				rec[i] = strconv.FormatInt(x, 10)
			case float64:
				rec[i] = cellText(x, 0)
			case string:
				rec[i] = x
			case []byte:
				rec[i] = base64.StdEncoding.EncodeToString(x)
			default:
				rec[i] = fmt.Sprint(x)
			}
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
