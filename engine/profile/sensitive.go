package profile

import (
	"querent/engine"
	"querent/engine/sensitive"
)

// Masked is the table's profile for an agent: each marked column's values
// left out (min, max, the top values and the histogram, which would reveal
// them; its counts of nulls and distinct values stay), the column flagged
// Sensitive, and the names of the masked columns. t itself is not changed.
func (t *Table) Masked(set *sensitive.Set) (*Table, []string) {
	names := []string{}
	if !set.Table(t.Name) {
		return t, names
	}
	c := *t
	c.Columns = make([]*Column, len(t.Columns))
	for i, col := range t.Columns {
		if !set.Has(t.Name, col.Name) {
			c.Columns[i] = col
			continue
		}
		m := *col
		m.Min, m.Max, m.Top, m.Histogram = Cell{}, Cell{}, []engine.TopValue{}, []Bin{}
		m.Sensitive = true
		c.Columns[i] = &m
		names = append(names, col.Name)
	}
	return &c, names
}
