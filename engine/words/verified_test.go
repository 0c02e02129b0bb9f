package words

import (
	"strings"
	"testing"
)

// The verified answers' hints (issue 23), by face: the command line names
// querent history's subcommands and flags, the page its card and panels
// in every language without a flag or a command, MCP says that only the
// analyst approves.
func TestVerifiedHintsByFace(t *testing.T) {
	approve := New("hint.approve_first", History.With(Value("approve ID")), History.With(Value("--format json")), History.With(Value("correct --sql SQL ID")))
	cases := []struct {
		s             Sentence
		cli, page, mc string
	}{
		{approve, "approve the answers that are right with querent history approve ID (the ids are in querent history --format json), or correct them with querent history correct --sql SQL ID",
			"approve the answers that are right with ✓ on their card, or correct their SQL (the History panel)",
			"only the analyst can approve answers, on Querent's command line or in its app"},
		{New("hint.history_ids", History.With(Value("--format json"))), "querent history --format json lists the entries with their ids",
			"the History panel lists the entries with their ids", "querent history --format json lists the entries with their ids"},
		{New("hint.moved_database", DB.With("FILE")), "if the file moved or was renamed, name it with --db FILE",
			"if the file moved or was renamed, open it where it is now and correct the answer there", "if the file moved or was renamed, name it with --db FILE"},
		{New("history.no_sql", SQLText.With("SQL")), "no SQL: give the right SQL with --sql SQL", "no SQL: give the right SQL with the SQL field", "no SQL: give the right SQL with --sql SQL"},
	}
	for _, c := range cases {
		got := []string{English(c.s), Speaker{Lang: "en", Face: Page}.Say(c.s), Speaker{Lang: "en", Face: Agent}.Say(c.s)}
		want := []string{c.cli, c.page, c.mc}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%s face %d:\ngot  %q\nwant %q", c.s.Key, i, got[i], want[i])
			}
		}
	}
	for _, key := range []string{"hint.approve_first", "hint.moved_database", "hint.approve_ran", "hint.correct_postgres", "hint.history_ids"} {
		s := New(key, History.With(Value("approve ID")), History.With(Value("--format json")), History.With(Value("correct --sql SQL ID")))
		for _, lang := range Languages {
			if got := (Speaker{Lang: lang, Face: Page}).Say(s); strings.Contains(got, "--") || strings.Contains(got, "querent ") {
				t.Errorf("%s, the page in %s: %q", key, lang, got)
			}
		}
	}
}
