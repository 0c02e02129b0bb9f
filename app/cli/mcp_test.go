package cli

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"
)

func TestMCPUsage(t *testing.T) {
	c := &CLI{Open: open}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"mcp", "extra.db"}, `unexpected argument "extra.db"`},
		{[]string{"mcp", "--max-rows", "0"}, "--max-rows must be at least 1"},
		{[]string{"mcp", "--db", "/no/such/file.db"}, "no such file"},
		{[]string{"mcp", "--timeout", "soon"}, `invalid value "soon"`},
	} {
		code, out, errs := runWith(t, c, "", tc.args...)
		if code != 2 || out != "" || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", tc.args, code, out, errs)
		}
	}
	code, out, _ := runWith(t, c, "", "mcp", "--help")
	if code != 0 || !strings.Contains(out, `"args": ["mcp", "--db"`) {
		t.Errorf("help: %d %s", code, out)
	}
}

// The protocol runs on standard input/output, messages stay off standard
// output, and the end of the input ends the server with status 0.
func TestMCPOverPipes(t *testing.T) {
	c := &CLI{Open: open, Version: "test"}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var errb strings.Builder
	done := make(chan int, 1)
	go func() {
		done <- c.Run(context.Background(), []string{"mcp"}, inR, outW, &errb)
		outW.Close()
	}()
	lines := bufio.NewScanner(outR)
	lines.Buffer(nil, 1<<20)
	send := func(msg string) {
		if _, err := io.WriteString(inW, msg+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	receive := func() string {
		if !lines.Scan() {
			t.Fatalf("no answer: %v", lines.Err())
		}
		return lines.Text()
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"pipe","version":"1"}}}`)
	if got := receive(); !strings.Contains(got, `"name":"querent"`) || !strings.Contains(got, `"version":"test"`) {
		t.Errorf("initialize: %s", got)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"run_query","arguments":{"sql":"SELECT count(*) AS n FROM Invoice"}}}`)
	if got := receive(); !strings.Contains(got, `"id":2`) || !strings.Contains(got, `\"n\":412`) {
		t.Errorf("run_query: %s", got)
	}
	inW.Close()
	if code := <-done; code != 0 {
		t.Errorf("exit %d: %s", code, errb.String())
	}
	if lines.Scan() {
		t.Errorf("more output: %s", lines.Text())
	}
	if !strings.Contains(errb.String(), "serving chinook (read-only)") {
		t.Errorf("stderr %q", errb.String())
	}
}

// A script that writes its requests and closes its end at once still gets
// every answer, even for a request that takes a while: within the second
// the calls in flight have once the input has ended (this session takes
// about 0.1 s; under the race detector, over a second).
func TestMCPAnswersEverythingBeforeTheEndOfInput(t *testing.T) {
	c := &CLI{Open: open, Version: "test"}
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"script","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"run_query","arguments":{"sql":"SELECT count(*) AS n FROM Invoice"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"run_query","arguments":{"sql":"WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM r WHERE x < 100000) SELECT sum(x) AS s FROM r"}}}`,
	}, "\n") + "\n"
	code, out, errs := runWith(t, c, in, "mcp")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{`"id":1,"result"`, `"id":2,"result"`, `\"n\":412`, `"id":3,"result"`, `\"s\":5000050000`} {
		if !strings.Contains(out, want) {
			t.Errorf("no %s in:\n%s", want, out)
		}
	}
}

// Input that is not JSON-RPC gets its error reply and the session goes on:
// the requests after it are answered, and the end of the input still ends
// the server with status 0.
func TestMCPAnswersBadInputAndGoesOn(t *testing.T) {
	c := &CLI{Open: open, Version: "test"}
	in := strings.Join([]string{
		`hello`,
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"script","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`[{"jsonrpc":"2.0","id":2,"method":"ping"}]`,
		`{"id":3,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"run_query","arguments":{"sql":"SELECT count(*) AS n FROM Invoice"}}}`,
	}, "\n") + "\n"
	code, out, errs := runWith(t, c, in, "mcp")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 5 || !strings.HasPrefix(lines[0], `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: `) {
		t.Fatalf("want the parse error, then 4 answers:\n%s", out)
	}
	// The answers to requests come as each is done, not in the order read.
	for _, want := range []string{`"id":1,"result"`, `"id":2,"error":{"code":-32600`, `"id":3,"error":{"code":-32600`, `\"n\":412`} {
		if !strings.Contains(out, want) {
			t.Errorf("no %s in:\n%s", want, out)
		}
	}
}
