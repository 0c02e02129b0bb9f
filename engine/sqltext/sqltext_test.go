package sqltext

import (
	"reflect"
	"testing"
)

func TestStringLiterals(t *testing.T) {
	got := StringLiterals(`SELECT 'a', 'it''s', x'00ff', "not 'this'" -- 'nor this'
	FROM t WHERE c = /* 'no' */ 'b'`)
	if want := []string{"a", "it's", "b"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestHasTopLevelOrderBy(t *testing.T) {
	for sql, want := range map[string]bool{
		"SELECT a FROM t ORDER BY a":                              true,
		"SELECT a FROM (SELECT a FROM t ORDER BY a)":              false,
		"SELECT row_number() OVER (ORDER BY a) FROM t":            false,
		"SELECT 'ORDER BY' FROM t":                                false,
		"SELECT a FROM t -- ORDER BY a":                           false,
		"SELECT a FROM t ORDER /* why */ BY a":                    true,
		`SELECT "order" FROM t, "by"`:                             false,
		"SELECT group_concat(a ORDER BY a) FROM t":                false,
		"WITH x AS (SELECT 1) SELECT * FROM x ORDER BY 1 LIMIT 3": true,
	} {
		if got := HasTopLevelOrderBy(sql); got != want {
			t.Errorf("HasTopLevelOrderBy(%q) = %v, want %v", sql, got, want)
		}
	}
}

func TestSplit(t *testing.T) {
	sql := "SELECT ';' ; -- x\n /* ; */ SELECT 2;"
	st := Split(sql)
	if len(st) != 2 || sql[st[0].Start:st[0].End] != "SELECT ';'" || st[1].FirstWord(sql) != "SELECT" {
		t.Errorf("statements %+v", st)
	}
}

func TestLineCol(t *testing.T) {
	s := "SELECT 1\nFROM t\nWHERE x"
	for _, c := range []struct{ pos, line, col int }{{0, 1, 1}, {7, 1, 8}, {9, 2, 1}, {14, 2, 6}, {16, 3, 1}, {-3, 1, 1}, {99, 3, 8}} {
		if line, col := LineCol(s, c.pos); line != c.line || col != c.col {
			t.Errorf("LineCol(%d) = %d:%d, want %d:%d", c.pos, line, col, c.line, c.col)
		}
	}
}
