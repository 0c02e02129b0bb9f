package ask

import "testing"

func TestFieldScanner(t *testing.T) {
	f := fieldScanner{key: "sql"}
	full := `{"sql":"SELECT \"a\\b\" FROM t WHERE x = 'é\u00e9😀'","clarification_question":"","unanswerable_reason":""}`
	want := "SELECT \"a\\b\" FROM t WHERE x = 'éé😀'"
	done := false
	for n := 0; n <= len(full); n++ {
		v, found, complete := f.scan(full[:n])
		if complete {
			if v != want {
				t.Fatalf("at %d: %q, want %q", n, v, want)
			}
			if !done && n != len(`{"sql":"SELECT \"a\\b\" FROM t WHERE x = 'é\u00e9😀'"`) {
				t.Errorf("complete at %d, before the closing quote", n)
			}
			done = true
			continue
		}
		if found && len(v) > len(want) {
			t.Fatalf("at %d: partial %q longer than the value", n, v)
		}
	}
	if !done {
		t.Fatal("never complete")
	}
	if _, found, _ := f.scan(`{"clarification_question":"sql?","sql"`); found {
		t.Error("a key's text taken for the value")
	}
	if v, _, complete := (fieldScanner{key: "explanation"}).scan(`{"explanation":"It counts the`); complete || v != "It counts the" {
		t.Errorf("partial explanation %q %v", v, complete)
	}
	if v, _, complete := f.scan(`{ "sql" : "SELECT 1" ,`); !complete || v != "SELECT 1" {
		t.Errorf("spaces: %q %v", v, complete)
	}
}
