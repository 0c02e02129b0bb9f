package engine

import (
	"strings"
	"sync/atomic"
)

// MaskText is what a sensitive value reads where it is masked: in what a
// model or an agent is given, and in an export made without
// --include-sensitive (issue 28). A NULL is masked too.
const MaskText = "[masked]"

// ResultMarker marks the columns of a result that carry the values of a
// column the analyst marked sensitive (engine/sensitive's Set, which says
// how: Column.Sensitive).
type ResultMarker interface {
	// MarkResult sets the Sensitive flag of res's columns.
	MarkResult(res *Result)
	// Empty reports a marker that marks nothing.
	Empty() bool
}

// SensitiveHolder keeps a connection's marks; the engine's connections
// embed it (SetSensitive, Sensitive) and mark each result's columns with
// them. A marker once given is never changed (a new mark is a new set), so
// that a question running while the analyst marks a column reads one set
// or the other, whole.
type SensitiveHolder struct {
	marked atomic.Value // markerBox
}

type markerBox struct{ m ResultMarker }

// SetSensitive sets the connection's marks (nil: none).
func (h *SensitiveHolder) SetSensitive(m ResultMarker) { h.marked.Store(markerBox{m}) }

// Sensitive returns the connection's marks (nil: none).
func (h *SensitiveHolder) Sensitive() ResultMarker {
	b, _ := h.marked.Load().(markerBox)
	return b.m
}

// MarkResult marks res with the connection's marks, if it has any.
func (h *SensitiveHolder) MarkResult(res *Result) {
	if m := h.Sensitive(); m != nil && res != nil && !m.Empty() {
		m.MarkResult(res)
	}
}

// HasMarks reports whether the connection has marks.
func (h *SensitiveHolder) HasMarks() bool {
	m := h.Sensitive()
	return m != nil && !m.Empty()
}

// SensitiveMarker is a connection that keeps marks.
type SensitiveMarker interface {
	SetSensitive(ResultMarker)
	Sensitive() ResultMarker
}

// SplitColumn splits "table.column" at its last dot ("" table when there is
// none).
func SplitColumn(name string) (table, column string) {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[:i], name[i+1:]
	}
	return "", name
}

// SensitiveNames lists the names of the sensitive columns of cols.
func SensitiveNames(cols []Column) []string {
	out := []string{}
	for _, c := range cols {
		if c.Sensitive {
			out = append(out, c.Name)
		}
	}
	return out
}
