package mcp

import (
	"context"
	"fmt"
	"testing"

	"querent/engine"
	"querent/engine/words"
)

// An agent reads the engine's hints with its tools and arguments where the
// command line has its flags and commands, without the server's own
// limits; the hints engine/sqlite says in parts too.
func TestAgentsReadTheirWays(t *testing.T) {
	cases := []struct {
		err  error
		hint string
	}{
		{engine.Errorf(engine.CodeModelError, "no working query").SayHint(words.New("hint.no_working_query", words.Model, words.SQL)),
			"rephrase the question (name the tables or columns you mean), try another model (the model argument), or write the SQL yourself with run_query"},
		{engine.AsError(errDeadline), "ask for less (filter, aggregate, LIMIT)"},
		{engine.Errorf(engine.CodeTimeout, "stopped").SayHint(words.New("hint.cheaper", words.Timeout)),
			"make it cheaper (filter with WHERE, join on key columns, aggregate before joining, add LIMIT)"},
		{engine.Errorf(engine.CodeTimeout, "stopped").SayHint(words.New("hint.cheaper_stream", words.Timeout)),
			"make it cheaper (filter with WHERE, join on key columns, aggregate before joining)"},
		{engine.Errorf(engine.CodeUsage, "no model").SayHint(words.New("hint.choose_model", words.Model.With("NAME"))),
			"choose an installed model (the model argument); `ollama list` shows them"},
	}
	for _, c := range cases {
		d := forAgents([]engine.ErrorDoc{engine.NewErrorDoc(c.err)})[0]
		if d.Hint != c.hint {
			t.Errorf("hint %q, want %q", d.Hint, c.hint)
		}
	}
}

var errDeadline = fmt.Errorf("waiting: %w", context.DeadlineExceeded)
