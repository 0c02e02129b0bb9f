package ask

// Answers outside the format (issue 24 §4): SQL specialists (sqlcoder,
// OmniSQL, Arctic-Text2SQL) and servers that do not constrain the output
// answer with the SQL in a ```sql fence, after "SQL:", or as the reply
// itself. The SQL is taken (the guard checks it as always) and the round
// records that the model ignored the format; only a reply with no SQL at
// all costs a repair round.

import (
	"regexp"
	"strings"

	"querent/engine"
	"querent/engine/words"
)

var (
	// fenceRE is a fenced block: ```sql … ```, ```sqlite, ```postgresql
	// or a bare ``` fence (an unclosed fence runs to the end).
	fenceRE = regexp.MustCompile("(?is)```[ \\t]*(?:sql|sqlite|postgres|postgresql|pgsql)?[ \\t]*\\n?(.*?)(?:```|$)")
	// labelRE is "SQL:" or "Query:" (any case) before the statement.
	labelRE = regexp.MustCompile(`(?is)\b(?:sql(?:\s+query)?|query)\s*:\s*(.+)$`)
	// startRE finds a statement's start: SELECT or WITH at the start of
	// a line or of the text.
	startRE = regexp.MustCompile(`(?im)^\s*(select|with)\b`)
	// leadRE is a statement's first keyword.
	leadRE = regexp.MustCompile(`(?is)^\s*(select|with)\b`)
)

// looseSQL finds the SQL in a reply that is not the JSON asked for: in a
// fence, after a label, or from the first line that starts with SELECT or
// WITH; "" when the reply holds none. What follows the statement (a
// sentence after a blank line, a second fence) is left out; the statement
// ends at its first semicolon outside quotes.
func looseSQL(reply string) string {
	s := strings.TrimSpace(reply)
	if s == "" || strings.HasPrefix(s, "{") {
		return ""
	}
	for _, m := range fenceRE.FindAllStringSubmatch(s, -1) {
		if sql := statement(m[1]); sql != "" {
			return sql
		}
	}
	if m := labelRE.FindStringSubmatch(s); m != nil {
		if sql := statement(m[1]); sql != "" {
			return sql
		}
	}
	if loc := startRE.FindStringIndex(s); loc != nil {
		return statement(s[loc[0]:])
	}
	return ""
}

// statement cuts the SQL statement at the start of text: it must begin
// with SELECT or WITH; it ends at its first semicolon outside quotes, or at
// a blank line, or at the end.
func statement(text string) string {
	text = strings.TrimSpace(strings.Trim(strings.TrimSpace(text), "`"))
	if !leadRE.MatchString(text) {
		return ""
	}
	var quote byte
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == ';':
			return strings.TrimSpace(text[:i])
		case c == '\n' && strings.HasPrefix(strings.TrimLeft(text[i+1:], " \t\r"), "\n"):
			return strings.TrimSpace(text[:i])
		}
	}
	return strings.TrimSpace(text)
}

// warnFormat adds a note to the answer when a round's model ignored the
// format (ModelRound.FormatIgnored): the SQL came from its prose.
func (a *Asker) warnFormat(ans *engine.Answer, stats *engine.ModelStats) {
	for _, r := range stats.Rounds {
		if r.FormatIgnored {
			ans.Warn(words.New("model.ignored_format", words.Value(a.ModelName)))
			return
		}
	}
}
