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

func TestRunOptionsWithDefaults(t *testing.T) {
	if o := (RunOptions{}).WithDefaults(); o.MaxRows != DefaultMaxRows || o.Timeout != DefaultTimeout {
		t.Errorf("zero options: %+v", o)
	}
	if o := (RunOptions{MaxRows: MaxRowsInMemory * 10, Offset: 5}).WithDefaults(); o.MaxRows != MaxRowsInMemory || o.Offset != 5 {
		t.Errorf("a cap over the memory's: %+v", o)
	}
}
