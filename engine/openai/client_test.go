package openai

import (
	"errors"
	"strings"
	"testing"

	"querent/engine"
)

func TestParseBaseURL(t *testing.T) {
	for in, want := range map[string]string{
		"http://127.0.0.1:1234/v1":      "http://127.0.0.1:1234/v1",
		"http://127.0.0.1:1234/v1/":     "http://127.0.0.1:1234/v1",
		"127.0.0.1:8080":                "http://127.0.0.1:8080/v1",
		"HTTPS://gpu-box/openai/v1":     "https://gpu-box/openai/v1",
		"http://0.0.0.0:8000":           "http://127.0.0.1:8000/v1",
		"http://[::]:8000/v1":           "http://[::1]:8000/v1",
		" http://localhost:1337/v1 ":    "http://localhost:1337/v1",
		"http://[fe80::1]:8000/api/v1/": "http://[fe80::1]:8000/api/v1",
	} {
		u, err := ParseBaseURL(in)
		if err != nil || u.String() != want {
			t.Errorf("ParseBaseURL(%q) = %v, %v; want %s", in, u, err, want)
		}
	}
	for _, in := range []string{"", "ftp://host/v1", "http://host:0/v1", "http://host:99999", "http://host/v1?key=1", "http:///v1",
		"http://user:hunter2@host/v1", "user:hunter2@host:1234"} {
		_, err := ParseBaseURL(in)
		if err == nil {
			t.Errorf("ParseBaseURL(%q) accepted it", in)
		} else if strings.Contains(err.Error(), "hunter2") {
			t.Errorf("ParseBaseURL(%q) repeats the password: %v", in, err)
		}
	}
}

func TestNewReadsTheEnvironment(t *testing.T) {
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:1234/v1")
	t.Setenv("OPENAI_API_KEY", "")
	c, err := New(Config{})
	if err != nil || c.Host() != "http://127.0.0.1:1234/v1" || c.key != "" || c.RequestTimeout() != DefaultRequestTimeout {
		t.Fatalf("%+v %v", c, err)
	}
	t.Setenv("OPENAI_BASE_URL", "gopher://x")
	_, err = New(Config{})
	var e *engine.Error
	if !errors.As(err, &e) || e.Code != engine.CodeUsage || !strings.Contains(e.Hint, "OPENAI_BASE_URL") {
		t.Errorf("%v", err)
	}
	_, err = New(Config{BaseURL: "http://me:pw-9x@host/v1"})
	if !errors.As(err, &e) || strings.Contains(e.Error()+e.Hint, "pw-9x") || !strings.Contains(e.Hint, "--llm-url") {
		t.Errorf("%v", err)
	}
}

func TestReadEvents(t *testing.T) {
	var got []string
	body := ": keep-alive\r\nevent: message\r\ndata: {\"a\":1}\r\n\r\nid: 2\ndata: line1\ndata: line2\n\nretry: 10\ndata: [DONE]\n\ndata: after\n\n"
	done, err := readEvents(strings.NewReader(body), func(d []byte) error { got = append(got, string(d)); return nil })
	if !done || err != nil || strings.Join(got, "|") != `{"a":1}|line1`+"\n"+`line2` {
		t.Errorf("done %v err %v events %q", done, err, got)
	}
	// A last event without its blank line still counts; no [DONE] is not done.
	got = nil
	done, err = readEvents(strings.NewReader("data: x\n\ndata:y"), func(d []byte) error { got = append(got, string(d)); return nil })
	if done || err != nil || strings.Join(got, "|") != "x|y" {
		t.Errorf("done %v err %v events %q", done, err, got)
	}
	stop := errors.New("stop")
	if _, err := readEvents(strings.NewReader("data: x\n\n"), func([]byte) error { return stop }); !errors.Is(err, stop) {
		t.Errorf("%v", err)
	}
}
