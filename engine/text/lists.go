package text

import (
	"fmt"
	"strings"
)

// ContainsFold reports whether list holds s, ignoring case.
func ContainsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// OrList says "A", "A or B", "A, B or C" (an error's choices).
func OrList(s []string) string {
	switch len(s) {
	case 0:
		return ""
	case 1:
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

// NameList says at most max names, then how many more: "A, B, C and 4
// more" (a hint listing a table's columns).
func NameList(s []string, max int) string {
	if len(s) <= max {
		return strings.Join(s, ", ")
	}
	return strings.Join(s[:max], ", ") + fmt.Sprintf(" and %d more", len(s)-max)
}

// Excerpt shortens s to about n characters on one line, with … where it
// is cut.
func Excerpt(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
