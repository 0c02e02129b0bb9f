package engine

import (
	"strings"
	"testing"
)

func TestUniqueNames(t *testing.T) {
	cols := []Column{{Name: "total"}, {Name: "Total"}, {Name: "total_2"}, {Name: "total"}, {Name: "n"}}
	UniqueNames(cols)
	var got []string
	for _, c := range cols {
		got = append(got, c.Name)
	}
	want := []string{"total", "Total_3", "total_2", "total_4", "n"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("names %v, want %v", got, want)
	}
}
