// Package casefile reads the test suites' case files (the red teams'
// hostile statements): a header line per case,
//
//	### category: what it tries | expect: outcome
//
// then its SQL on the lines up to the next header, with placeholders
// ({{DIR}}, {{NUL}}…) filled in by the caller's replacer. Lines before the
// first header are the file's own comments.
package casefile

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// Case is one case of a file.
type Case struct {
	Line int // the header's line
	// Head is the header before "| expect:"; Category and What are its
	// parts before and after the first colon.
	Head, Category, What string
	Expect               string
	SQL                  string
}

// Read reads the cases of path, each SQL passed through repl (nil: as
// written); a header without "| expect:" fails t.
func Read(t testing.TB, path string, repl *strings.Replacer) []Case {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []Case
	var cur *Case
	var body []string
	flush := func() {
		if cur != nil {
			cur.SQL = strings.Join(body, "\n")
			if repl != nil {
				cur.SQL = repl.Replace(cur.SQL)
			}
			cases = append(cases, *cur)
		}
		body = nil
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if h, ok := strings.CutPrefix(line, "### "); ok {
			flush()
			head, expect, ok := strings.Cut(h, "| expect:")
			if !ok {
				t.Fatalf("%s:%d: no expect: in %q", path, n, line)
			}
			cat, what, _ := strings.Cut(head, ":")
			cur = &Case{Line: n, Head: strings.TrimSpace(head), Category: strings.TrimSpace(cat),
				What: strings.TrimSpace(what), Expect: strings.TrimSpace(expect)}
			continue
		}
		if cur != nil {
			body = append(body, line)
		}
	}
	flush()
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}
