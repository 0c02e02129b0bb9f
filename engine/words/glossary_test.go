package words

import (
	"strings"
	"testing"
)

// The glossary's hints, by face: the command line names its commands and
// flags, the page its panel and fields (in every language, never a flag),
// MCP its read-only tool.
func TestGlossaryHintsByFace(t *testing.T) {
	fix := New("glossary.fix_stale",
		Glossary.With(Value("add"), DB.With("x.db"), Value("TERM"), Meaning.With("TEXT"), SQLText.With("SQL")),
		Glossary.With(Value("remove"), DB.With("x.db"), Value("TERM")))
	cases := []struct {
		s             Sentence
		cli, page, mc string
	}{
		{fix, "fix its SQL with querent glossary add --db x.db TERM --meaning TEXT --sql SQL (the same term replaces the entry), or remove it with querent glossary remove --db x.db TERM; until then it is not sent to the model",
			"fix its SQL or remove it, in the Glossary panel; until then it is not sent to the model",
			"the analyst can fix or remove it (list_glossary lists it); until then it is not sent to the model"},
		{New("glossary.see_terms", Glossary.With(Value("list"), DB.With("x.db"))), "check its spelling; querent glossary list --db x.db lists the terms",
			"check its spelling; the Glossary panel lists the terms", "check its spelling; list_glossary lists the terms"},
		{New("glossary.say_meaning", Meaning.With("TEXT")), "say what the term means, in plain words, with --meaning TEXT",
			"say what the term means, in plain words, in the Meaning field", ""},
		{New("glossary.name_term", Glossary.With(Value("add"), Value("TERM"), Meaning.With("TEXT"))), "name the term and say what it means: querent glossary add TERM --meaning TEXT",
			"name the term and say what it means, in the Glossary panel", ""},
	}
	for _, c := range cases {
		if got := English(c.s); got != c.cli {
			t.Errorf("%s on the command line:\n got %q\nwant %q", c.s.Key, got, c.cli)
		}
		if got := (Speaker{Lang: "en", Face: Page}).Say(c.s); got != c.page {
			t.Errorf("%s in the page:\n got %q\nwant %q", c.s.Key, got, c.page)
		}
		if c.mc != "" {
			if got := (Speaker{Lang: "en", Face: Agent}).Say(c.s); got != c.mc {
				t.Errorf("%s in MCP:\n got %q\nwant %q", c.s.Key, got, c.mc)
			}
		}
		for _, lang := range Languages {
			got := Speaker{Lang: lang, Face: Page}.Say(c.s)
			if namesCommandLine(got) || lang != "en" && got == c.page {
				t.Errorf("the page in %s: %q", lang, got)
			}
			if cli := (Speaker{Lang: lang}).Say(c.s); !strings.Contains(cli, "querent glossary") && !strings.Contains(cli, "--meaning") {
				t.Errorf("the command line in %s names no command or flag: %q", lang, cli)
			}
		}
	}
}
