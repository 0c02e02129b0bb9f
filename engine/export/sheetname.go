package export

import (
	"strconv"
	"strings"
	"unicode/utf16"
)

// maxSheetName is Excel's limit on a sheet name, in UTF-16 code units.
const maxSheetName = 31

// SheetName makes s a valid Excel sheet name: the characters Excel refuses
// (: \ / ? * [ ]) and control characters become '_', leading and trailing
// apostrophes go, the name is cut to 31 characters (UTF-16 code units,
// never splitting a character), "History" (reserved by Excel) becomes
// "History_", and an empty name becomes "Sheet". It does not make names
// unique: UniqueSheetName does.
func SheetName(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case strings.ContainsRune(`:\/?*[]`, r), r < 0x20, r == 0x7f:
			b.WriteByte('_')
		default:
			b.WriteRune(r)
		}
	}
	name := strings.Trim(b.String(), "'")
	name = strings.Trim(cutUTF16(name, maxSheetName), "'")
	switch {
	case name == "":
		return "Sheet"
	case strings.EqualFold(name, "History"):
		return name + "_"
	}
	return name
}

// UniqueSheetName returns SheetName(s), with " 2", " 3"… added (the name
// cut to make room) when it equals one of taken, compared
// case-insensitively as Excel compares sheet names.
func UniqueSheetName(s string, taken []string) string {
	base := SheetName(s)
	clash := func(n string) bool {
		for _, t := range taken {
			if strings.EqualFold(t, n) {
				return true
			}
		}
		return false
	}
	if !clash(base) {
		return base
	}
	for i := 2; ; i++ {
		suffix := " " + strconv.Itoa(i)
		n := strings.TrimRight(cutUTF16(base, maxSheetName-len(suffix)), "'") + suffix
		if !clash(n) {
			return n
		}
	}
}

// cutUTF16 keeps the longest prefix of s that is at most n UTF-16 code
// units, never splitting a character.
func cutUTF16(s string, n int) string {
	units := 0
	for i, r := range s {
		w := utf16.RuneLen(r)
		if w < 0 {
			w = 1 // an invalid byte: written as U+FFFD
		}
		if units+w > n {
			return s[:i]
		}
		units += w
	}
	return s
}

// utf16Len is the length of s in UTF-16 code units, Excel's unit for cell
// and sheet-name limits.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 && r <= 0x10FFFF {
			n += 2
		} else {
			n++
		}
	}
	return n
}
