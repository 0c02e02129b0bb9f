package words

import (
	"bytes"
	"encoding/gob"
	"reflect"
	"testing"
)

// A sentence crosses gob part for part: the same parts, said the same in
// every language by every face; the zero sentence stays zero.
func TestSentenceGob(t *testing.T) {
	type carrier struct {
		Message, Hint, None Sentence
	}
	in := carrier{
		Message: Seq(Value("x.db: "), New("target.user_table", Value("x.db"), Quoted(`t"1`), Count(1234), Replace)),
		Hint: Sentence{Parts: []Part{List(Semi, New("hint.cheaper", Timeout), nil, New("ollama.sql_works", SQL)),
			New("target.keep_unnamed", Seq(Column.With(`"#3:text"`), Value(" ")), Values(Comma, "#3")),
			New("open.empty_file", Import.With(DB.With("new.sqlite"), Value("data.csv"))),
			And(3, "a", "b", "c", "d"), Either("x", "y", "z"), Word(3), Line(57), Model.With("NAME"), Schema, New("more", Value("2"))}},
	}
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(in); err != nil {
		t.Fatal(err)
	}
	var out carrier
	if err := gob.NewDecoder(&b).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(in, out) {
		t.Fatalf("decoded\n%#v\nwant\n%#v", out, in)
	}
	for _, face := range []Face{CommandLine, Page, Agent} {
		for _, lang := range Languages {
			sp := Speaker{Lang: lang, Face: face}
			for _, s := range [][2]Sentence{{in.Message, out.Message}, {in.Hint, out.Hint}} {
				if sp.Say(s[0]) != sp.Say(s[1]) {
					t.Errorf("%s %s: %q, want %q", face, lang, sp.Say(s[1]), sp.Say(s[0]))
				}
			}
		}
	}
	if !out.None.IsZero() {
		t.Errorf("the zero sentence decoded as %#v", out.None)
	}
}
