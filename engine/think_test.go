package engine

import "testing"

func TestThinkFilter(t *testing.T) {
	for _, tc := range []struct {
		pieces           []string
		answer, thinking string
	}{
		{[]string{"<think>a</think>{}"}, "{}", "a"},
		{[]string{" <", "th", "ink>ab", "c</", "thi", "nk>", "\n{\"sql\"", ":1}"}, `{"sql":1}`, "abc"},
		{[]string{"{\"sql\":\"<think>\"}"}, `{"sql":"<think>"}`, ""},
		{[]string{"<t"}, "<t", ""},
		{[]string{"<think>never closed <"}, "", "never closed <"},
		{[]string{"Here is the query: SELECT 1"}, "Here is the query: SELECT 1", ""},
	} {
		var f ThinkFilter
		var answer, thinking string
		for _, p := range tc.pieces {
			a, th := f.Write(p)
			answer, thinking = answer+a, thinking+th
		}
		a, th := f.Flush()
		answer, thinking = answer+a, thinking+th
		if answer != tc.answer || thinking != tc.thinking {
			t.Errorf("%q: answer %q thinking %q, want %q and %q", tc.pieces, answer, thinking, tc.answer, tc.thinking)
		}
	}
}
