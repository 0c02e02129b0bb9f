package words

import (
	"bytes"
	"encoding/gob"
	"fmt"
)

// A Sentence crosses a process boundary (engine/worker's frames) in gob:
// its parts are values of the package's own types, most with unexported
// fields that gob cannot see, so a Sentence encodes itself as a tree of
// wireParts and is rebuilt from it, part for part. Without it a worker's
// errors reached the parent as English only, and each face rewrote it.

// wirePart is one part as encoded: its kind, its text (a value, a key, a
// flag, a command), its number (a count, a separator, a list's max) and
// the parts it holds.
type wirePart struct {
	Kind  byte
	Text  string
	Value string // a flag's value
	N     int64
	Parts []wirePart
}

// The kinds of wireParts.
const (
	wireNil byte = iota
	wireSentence
	wireValue
	wireQuoted
	wireCount
	wireWord
	wireLine
	wireList
	wireAnd
	wireFlag
	wireFlagWith
	wireCommand
	wireCommandWith
	wireEither
)

// GobEncode encodes the sentence and its parts.
func (s Sentence) GobEncode() ([]byte, error) {
	w, err := toWirePart(s)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(w); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// GobDecode rebuilds a sentence GobEncode encoded.
func (s *Sentence) GobDecode(data []byte) error {
	var w wirePart
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&w); err != nil {
		return err
	}
	p, err := fromWirePart(w)
	if err != nil {
		return err
	}
	q, ok := p.(Sentence)
	if !ok {
		return fmt.Errorf("words: a sentence was encoded as part kind %d", w.Kind)
	}
	*s = q
	return nil
}

// toWireParts encodes parts.
func toWireParts(parts []Part) ([]wirePart, error) {
	if parts == nil {
		return nil, nil
	}
	out := make([]wirePart, len(parts))
	for i, p := range parts {
		w, err := toWirePart(p)
		if err != nil {
			return nil, err
		}
		out[i] = w
	}
	return out, nil
}

// toWirePart encodes one part.
func toWirePart(p Part) (wirePart, error) {
	var err error
	w := wirePart{}
	switch x := p.(type) {
	case nil:
		w.Kind = wireNil
	case Sentence:
		w.Kind, w.Text = wireSentence, x.Key
		w.Parts, err = toWireParts(x.Parts)
	case Value:
		w.Kind, w.Text = wireValue, string(x)
	case Quoted:
		w.Kind, w.Text = wireQuoted, string(x)
	case Count:
		w.Kind, w.N = wireCount, int64(x)
	case Word:
		w.Kind, w.N = wireWord, int64(x)
	case Line:
		w.Kind, w.N = wireLine, int64(x)
	case list:
		w.Kind, w.N = wireList, int64(x.sep)
		w.Parts, err = toWireParts(x.items)
	case and:
		w.Kind, w.N = wireAnd, int64(x.max)
		w.Parts, err = toWireParts(x.items)
	case either:
		w.Kind = wireEither
		w.Parts, err = toWireParts(x.items)
	case Flag:
		w.Kind, w.Text = wireFlag, string(x)
	case flagWith:
		w.Kind, w.Text, w.Value = wireFlagWith, string(x.flag), x.value
	case Command:
		w.Kind, w.Text = wireCommand, string(x)
	case commandWith:
		w.Kind, w.Text = wireCommandWith, string(x.cmd)
		w.Parts, err = toWireParts(x.flags)
	default:
		return w, fmt.Errorf("words: cannot encode a part of type %T", p)
	}
	return w, err
}

// fromWireParts decodes parts.
func fromWireParts(ws []wirePart) ([]Part, error) {
	if ws == nil {
		return nil, nil
	}
	out := make([]Part, len(ws))
	for i, w := range ws {
		p, err := fromWirePart(w)
		if err != nil {
			return nil, err
		}
		out[i] = p
	}
	return out, nil
}

// fromWirePart decodes one part.
func fromWirePart(w wirePart) (Part, error) {
	switch w.Kind {
	case wireNil:
		return nil, nil
	case wireValue:
		return Value(w.Text), nil
	case wireQuoted:
		return Quoted(w.Text), nil
	case wireCount:
		return Count(w.N), nil
	case wireWord:
		return Word(w.N), nil
	case wireLine:
		return Line(w.N), nil
	case wireFlag:
		return Flag(w.Text), nil
	case wireFlagWith:
		return flagWith{flag: Flag(w.Text), value: w.Value}, nil
	case wireCommand:
		return Command(w.Text), nil
	}
	parts, err := fromWireParts(w.Parts)
	if err != nil {
		return nil, err
	}
	switch w.Kind {
	case wireSentence:
		return Sentence{Key: w.Text, Parts: parts}, nil
	case wireList:
		return list{sep: Sep(w.N), items: parts}, nil
	case wireAnd:
		return and{max: int(w.N), items: parts}, nil
	case wireCommandWith:
		return commandWith{cmd: Command(w.Text), flags: parts}, nil
	case wireEither:
		return either{items: parts}, nil
	}
	return nil, fmt.Errorf("words: unknown part kind %d", w.Kind)
}
