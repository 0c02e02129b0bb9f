package postgres

import (
	"errors"
	"strings"
)

// PostgreSQL's node dump: the text form of its parse trees (nodeToString,
// read back by its own readfuncs.c), which the server sends as the detail
// of a LOG message when debug_print_rewritten is on. It is how the guard
// learns what the server itself made of a statement: every function,
// operator, type and relation by its OID, views and row-level security
// policies expanded.
//
//	({QUERY :commandType 1 … :targetList ({TARGETENTRY :expr {FUNCEXPR
//	:funcid 2626 … :args (…)} :resno 1 :resname pg_sleep …}) …})
//
// A node is {NAME :field value :field value …}; a value is a node, a list
// (…), the empty marker <>, or one or more tokens (a Datum is "4 [ 1 0 0 0 ]").
// Tokens are separated by whitespace and by the characters (){}; a
// backslash makes the next character part of the token.

// dumpValue is one value of a node dump.
type dumpValue struct {
	node   *dumpNode
	list   []*dumpValue
	isList bool
	tokens []string // a scalar: its tokens, escapes removed
}

// dumpNode is one node: its type (FUNCEXPR, QUERY…) and fields in order.
type dumpNode struct {
	typ    string
	fields []dumpField
}

type dumpField struct {
	name  string
	value *dumpValue
}

// field returns the value of the field name, or nil.
func (n *dumpNode) field(name string) *dumpValue {
	for i := range n.fields {
		if n.fields[i].name == name {
			return n.fields[i].value
		}
	}
	return nil
}

// scalar returns the field's single token ("" when absent, empty or not a
// single token).
func (n *dumpNode) scalar(name string) string {
	v := n.field(name)
	if v == nil || v.node != nil || v.isList || len(v.tokens) != 1 {
		return ""
	}
	return v.tokens[0]
}

// errDumpUnreadable says the dump cannot be read with certainty; the guard
// then refuses the statement.
var errDumpUnreadable = errors.New("the server's reading of the statement cannot be read back with certainty")

// dumpLineLen is the width at which PostgreSQL's format_node_dump (print.c)
// folds a dump into lines for a log message.
const dumpLineLen = 78

// unfoldDump undoes format_node_dump: it folds the dump into lines of at
// most 78 bytes, breaking at a space (which it drops) or, when the line
// holds no space, in the middle of a token (dropping nothing). A break of
// the first kind gives back its space; a full line without a space could be
// either kind, so the dump is then refused rather than guessed.
func unfoldDump(s string) (string, error) {
	s = strings.TrimSuffix(s, "\n")
	if !strings.Contains(s, "\n") {
		return s, nil
	}
	lines := strings.Split(s, "\n")
	var b strings.Builder
	b.Grow(len(s))
	for i, line := range lines {
		if len(line) > dumpLineLen {
			return "", errDumpUnreadable
		}
		b.WriteString(line)
		if i == len(lines)-1 {
			break
		}
		if len(line) == dumpLineLen && strings.IndexByte(line[1:], ' ') < 0 {
			return "", errDumpUnreadable
		}
		b.WriteByte(' ')
	}
	return b.String(), nil
}

// dumpMaxDepth bounds the nesting the reader follows (the parser's own
// limits keep real trees far below it).
const dumpMaxDepth = 10000

// parseDump reads a node dump. Anything it does not understand with
// certainty is an error: a field without a value or given twice (a name
// written as ":field" could pose as one), unbalanced brackets, a token
// where a node's type or a field's name belongs.
func parseDump(s string) (*dumpValue, error) {
	r := &dumpReader{s: s}
	v, err := r.value(0)
	if err != nil {
		return nil, err
	}
	if tok, _ := r.next(); tok != "" {
		return nil, errDumpUnreadable
	}
	if v == nil {
		return nil, errDumpUnreadable
	}
	return v, nil
}

type dumpReader struct {
	s      string
	i      int
	peek   *string // a token read ahead, and whether it is structural
	peekSp bool
}

// next returns the next token ("" at the end) and whether it is one of the
// structural characters.
func (r *dumpReader) next() (string, bool) {
	if r.peek != nil {
		t, sp := *r.peek, r.peekSp
		r.peek = nil
		return t, sp
	}
	s := r.s
	for r.i < len(s) && (s[r.i] == ' ' || s[r.i] == '\n' || s[r.i] == '\t') {
		r.i++
	}
	if r.i >= len(s) {
		return "", false
	}
	switch c := s[r.i]; c {
	case '(', ')', '{', '}':
		r.i++
		return string(c), true
	}
	var b strings.Builder
	for r.i < len(s) {
		c := s[r.i]
		if c == ' ' || c == '\n' || c == '\t' || c == '(' || c == ')' || c == '{' || c == '}' {
			break
		}
		if c == '\\' && r.i+1 < len(s) {
			b.WriteByte(s[r.i+1])
			r.i += 2
			continue
		}
		b.WriteByte(c)
		r.i++
	}
	return b.String(), false
}

func (r *dumpReader) unread(tok string, special bool) {
	r.peek, r.peekSp = &tok, special
}

// value reads one value: a node, a list or a token.
func (r *dumpReader) value(depth int) (*dumpValue, error) {
	if depth > dumpMaxDepth {
		return nil, errDumpUnreadable
	}
	tok, sp := r.next()
	switch {
	case tok == "":
		return nil, errDumpUnreadable
	case sp && tok == "{":
		n, err := r.node(depth + 1)
		if err != nil {
			return nil, err
		}
		return &dumpValue{node: n}, nil
	case sp && tok == "(":
		v := &dumpValue{isList: true}
		for {
			t, tsp := r.next()
			if t == "" {
				return nil, errDumpUnreadable
			}
			if tsp && t == ")" {
				return v, nil
			}
			r.unread(t, tsp)
			e, err := r.value(depth + 1)
			if err != nil {
				return nil, err
			}
			v.list = append(v.list, e)
		}
	case sp:
		return nil, errDumpUnreadable
	}
	return &dumpValue{tokens: []string{tok}}, nil
}

func (r *dumpReader) node(depth int) (*dumpNode, error) {
	typ, sp := r.next()
	if sp || typ == "" || typ[0] == ':' {
		return nil, errDumpUnreadable
	}
	n := &dumpNode{typ: typ}
	seen := map[string]bool{}
	for {
		tok, tsp := r.next()
		switch {
		case tok == "":
			return nil, errDumpUnreadable
		case tsp && tok == "}":
			return n, nil
		case tsp || tok[0] != ':' || len(tok) < 2:
			return nil, errDumpUnreadable
		}
		name := tok[1:]
		if seen[name] {
			return nil, errDumpUnreadable
		}
		seen[name] = true
		// A field's value: a node, a list, or the tokens up to the next
		// field or the node's end.
		t, vsp := r.next()
		switch {
		case t == "" || (vsp && t == "}") || (!vsp && t[0] == ':'):
			// No value: a name such as ":funcid" posing as a field.
			return nil, errDumpUnreadable
		case vsp && (t == "{" || t == "("):
			r.unread(t, vsp)
			v, err := r.value(depth)
			if err != nil {
				return nil, err
			}
			n.fields = append(n.fields, dumpField{name: name, value: v})
		case vsp:
			return nil, errDumpUnreadable
		default:
			v := &dumpValue{tokens: []string{t}}
			for {
				t2, sp2 := r.next()
				if t2 == "" {
					return nil, errDumpUnreadable
				}
				if sp2 || t2[0] == ':' {
					if sp2 && t2 != "}" {
						// A Datum's bytes are tokens; a node or list after
						// a scalar is not a form PostgreSQL writes.
						return nil, errDumpUnreadable
					}
					r.unread(t2, sp2)
					break
				}
				v.tokens = append(v.tokens, t2)
			}
			n.fields = append(n.fields, dumpField{name: name, value: v})
		}
	}
}
