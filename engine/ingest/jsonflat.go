package ingest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// kv is one key path of a flattened JSON object and its value's text.
type kv struct{ k, v string }

// flattenObject flattens one JSON object into its key paths and values'
// text, in the object's order: strings as they are, numbers as written,
// true/false, null as "" (NULL); objects to JSONDepth keys deep as more
// keys, deeper objects and arrays as their compact JSON text. It checks
// the whole record first (json.Valid), then walks the bytes once.
func flattenObject(b []byte) ([]kv, error) {
	if !json.Valid(b) {
		return nil, jsonWhy(b)
	}
	w := &jsonWalk{b: b}
	w.space()
	if w.b[w.i] != '{' {
		return nil, fmt.Errorf("it is %s, not an object", jsonKind(w.b[w.i]))
	}
	var rec []kv
	w.i++
	w.object("", 1, &rec)
	return rec, nil
}

// jsonWhy says why b is not valid JSON.
func jsonWhy(b []byte) error {
	var v any
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("there is more after the record's end")
	}
	return errors.New("not valid JSON")
}

func jsonKind(c byte) string {
	switch c {
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "true or false"
	case 'n':
		return "null"
	}
	return "a number"
}

// jsonWalk walks valid JSON text.
type jsonWalk struct {
	b []byte
	i int
}

func (w *jsonWalk) space() {
	for w.i < len(w.b) && (w.b[w.i] == ' ' || w.b[w.i] == '\t' || w.b[w.i] == '\r' || w.b[w.i] == '\n') {
		w.i++
	}
}

// object reads the members of an object whose { was read, and its }.
func (w *jsonWalk) object(prefix string, depth int, rec *[]kv) {
	for {
		w.space()
		if w.b[w.i] == '}' {
			w.i++
			return
		}
		if w.b[w.i] == ',' {
			w.i++
			w.space()
		}
		key := prefix + w.str()
		w.space()
		w.i++ // :
		w.space()
		switch c := w.b[w.i]; c {
		case '{':
			if depth < JSONDepth {
				w.i++
				w.object(key+".", depth+1, rec)
				continue
			}
			*rec = append(*rec, kv{key, w.compact()})
		case '[':
			*rec = append(*rec, kv{key, w.compact()})
		case '"':
			*rec = append(*rec, kv{key, w.str()})
		case 'n':
			w.i += 4
			*rec = append(*rec, kv{key, ""})
		case 't':
			w.i += 4
			*rec = append(*rec, kv{key, "true"})
		case 'f':
			w.i += 5
			*rec = append(*rec, kv{key, "false"})
		default:
			s := w.i
			for w.i < len(w.b) && !isJSONEnd(w.b[w.i]) {
				w.i++
			}
			*rec = append(*rec, kv{key, string(w.b[s:w.i])})
		}
	}
}

func isJSONEnd(c byte) bool {
	return c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\r' || c == '\n'
}

// str reads a string at w.i and returns its value.
func (w *jsonWalk) str() string {
	s := w.i
	w.i++
	escaped := false
	for w.b[w.i] != '"' {
		if w.b[w.i] == '\\' {
			escaped = true
			w.i++
		}
		w.i++
	}
	w.i++
	if !escaped {
		return string(w.b[s+1 : w.i-1])
	}
	var v string
	_ = json.Unmarshal(w.b[s:w.i], &v) // valid: checked by json.Valid
	return v
}

// compact reads the array or object at w.i and returns its compact text.
func (w *jsonWalk) compact() string {
	s := w.i
	level := 0
	for {
		switch w.b[w.i] {
		case '"':
			w.str()
			continue
		case '{', '[':
			level++
		case '}', ']':
			level--
		}
		w.i++
		if level == 0 {
			break
		}
	}
	var buf bytes.Buffer
	_ = json.Compact(&buf, w.b[s:w.i]) // valid: checked by json.Valid
	return buf.String()
}
