package ingest

// Booleans: the yes/no words the Inferrer reads as BOOLEAN.

// The pairs of yes/no words, as bits of Inferrer.boolWords.
const (
	bwTrueFalse = 1 << iota
	bwYesNo
	bwTF
	bwYN
	bw10
)

var boolPairs = []struct {
	bit  uint8
	text string
}{{bwTrueFalse, "true/false"}, {bwYesNo, "yes/no"}, {bwTF, "t/f"}, {bwYN, "y/n"}, {bw10, "1/0"}}

// boolValue reads a yes/no word: true/false, yes/no, t/f, y/n (any case)
// or 1/0; pair is its bw* bit.
func boolValue(t string) (v int64, pair uint8, ok bool) {
	switch len(t) {
	case 1:
		switch t[0] {
		case '0':
			return 0, bw10, true
		case '1':
			return 1, bw10, true
		case 't', 'T':
			return 1, bwTF, true
		case 'y', 'Y':
			return 1, bwYN, true
		case 'f', 'F':
			return 0, bwTF, true
		case 'n', 'N':
			return 0, bwYN, true
		}
	case 2:
		if eqFoldASCII(t, "no") {
			return 0, bwYesNo, true
		}
	case 3:
		if eqFoldASCII(t, "yes") {
			return 1, bwYesNo, true
		}
	case 4:
		if eqFoldASCII(t, "true") {
			return 1, bwTrueFalse, true
		}
	case 5:
		if eqFoldASCII(t, "false") {
			return 0, bwTrueFalse, true
		}
	}
	return 0, 0, false
}

func (c *Inferrer) addBool(t string) whyNot {
	_, pair, ok := boolValue(t)
	if !ok {
		return whyNot{key: "not_yes_no"}
	}
	c.boolWords |= pair
	return whyNot{}
}

// boolWord reports a yes/no word other than 1/0: a column of only 1 and 0
// is INTEGER.
func (c *Inferrer) boolWord() bool { return c.boolWords&^bw10 != 0 }
