package engine

import "strings"

// ParseDelimiter reads a CSV delimiter as the faces write it — ",", ";",
// "tab" (or a tab), "|", or their names comma, semicolon, pipe — the one
// parser for imports and exports. "" and "auto" give 0 (detect it, or the
// default comma); ok is false for anything else.
func ParseDelimiter(s string) (d rune, ok bool) {
	switch strings.ToLower(s) {
	case "", "auto":
		return 0, true
	case ",", "comma":
		return ',', true
	case ";", "semicolon":
		return ';', true
	case "tab", "\t", `\t`:
		return '\t', true
	case "|", "pipe":
		return '|', true
	}
	return 0, false
}

// DelimiterName is how messages name a delimiter: "tab" for a tab, else the
// character.
func DelimiterName(d rune) string {
	if d == '\t' {
		return "tab"
	}
	return string(d)
}
