package adapter

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"querent/engine"
)

func TestNames(t *testing.T) {
	n := &Names{Tables: []TableNames{{Name: "Artist"}, {Name: "sales.orders"}, {Name: "_querent_imports", Internal: true}}}
	if tn := n.Table("artist"); tn == nil || tn.Name != "Artist" {
		t.Errorf("artist: %v", tn)
	}
	if n.Table("orders") != nil {
		t.Error("a bare name found a qualified table in an index that is not qualified")
	}
	n.Qualified = true
	if tn := n.Table("ORDERS"); tn == nil || tn.Name != "sales.orders" {
		t.Errorf("orders: %v", tn)
	}
	if got := n.TableList(); !slices.Equal(got, []string{"Artist", "sales.orders"}) {
		t.Errorf("list %q", got)
	}
}

func TestUnknownTable(t *testing.T) {
	e := UnknownTable("SELECT * FROM Artists", 14, "main.Artists", []string{"Artist", "Album"}, "none")
	if e.Code != engine.CodeUnknownTable || e.Position != 14 || e.Message != "no such table: main.Artists" ||
		e.Hint != "did you mean Artist? the tables and views are: Artist, Album" {
		t.Errorf("%+v", e)
	}
	if e := UnknownTable("SELECT * FROM x", -1, "x", nil, "this database has no tables"); e.Hint != "this database has no tables" {
		t.Errorf("no tables: %q", e.Hint)
	}
}

func TestHintsOnce(t *testing.T) {
	var h Hints
	if h.List() != nil {
		t.Error("no hints is nil")
	}
	h.Add("scan of %s", "t")
	h.Add("sort")
	h.Add("scan of %s", "t")
	if got := h.List(); !slices.Equal(got, []string{"scan of t", "sort"}) {
		t.Errorf("%q", got)
	}
}

func TestCutSample(t *testing.T) {
	long := strings.Repeat("é", SampleTextRunes+5)
	if got := CutSample(long).(string); []rune(got)[SampleTextRunes] != '…' || len([]rune(got)) != SampleTextRunes+1 {
		t.Errorf("text cut to %d runes", len([]rune(got)))
	}
	if got := CutSample(make([]byte, 100)).([]byte); len(got) != SampleBlobBytes {
		t.Errorf("blob cut to %d bytes", len(got))
	}
	if got := CutSample(int64(7)); got != int64(7) {
		t.Errorf("a number: %v", got)
	}
}

func TestWithLock(t *testing.T) {
	lock := make(chan struct{}, 1)
	ran := false
	if err := WithLock(context.Background(), lock, func() error { ran = true; return nil }); err != nil || !ran || len(lock) != 0 {
		t.Fatalf("%v %v %d", err, ran, len(lock))
	}
	lock <- struct{}{} // held elsewhere
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	if err := WithLock(ctx, lock, func() error { t.Error("ran without the lock"); return nil }); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("%v", err)
	}
}
