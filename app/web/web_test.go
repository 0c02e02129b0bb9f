package web_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"querent/app/page"
	"querent/app/web"
	"querent/frontend"
	"querent/internal/wiring"
)

// start serves the services on a free loopback port for the test.
func start(t *testing.T) (*web.Server, string) {
	t.Setenv("QUERENT_DATA_DIR", t.TempDir())
	svc := page.New(wiring.PageDeps("test"), nil, nil)
	t.Cleanup(svc.Close)
	srv, err := web.New(svc, frontend.Assets())
	if err != nil {
		t.Fatal(err)
	}
	ln, err := srv.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { srv.Serve(ctx, ln); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	if _, err := svc.Datasets.OpenDemo(); err != nil {
		t.Fatal(err)
	}
	base := strings.Split(srv.URL(), "/?")[0]
	return srv, base
}

func call(t *testing.T, base, token, target, body string, hdr map[string]string) (int, map[string]any) {
	req, _ := http.NewRequest("POST", base+"/call/"+target, strings.NewReader(body))
	if token != "" {
		req.Header.Set("X-Querent-Token", token)
	}
	for k, v := range hdr {
		if k == "Host" {
			req.Host = v
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var m map[string]any
	json.NewDecoder(resp.Body).Decode(&m)
	return resp.StatusCode, m
}

func TestGuards(t *testing.T) {
	srv, base := start(t)
	port := strings.TrimPrefix(base, "http://127.0.0.1:")
	tests := []struct {
		name  string
		token string
		hdr   map[string]string
		code  int
	}{
		{"no token", "", nil, 401},
		{"wrong token", "0000", nil, 401},
		{"token as a query parameter", "", nil, 401}, // checked below with ?token=
		{"another page's origin", srv.Token(), map[string]string{"Origin": "http://evil.example"}, 403},
		{"a rebound host name", srv.Token(), map[string]string{"Host": "evil.example:" + port}, 403},
		{"the server's own origin", srv.Token(), map[string]string{"Origin": "http://127.0.0.1:" + port}, 200},
		{"localhost", srv.Token(), map[string]string{"Host": "localhost:" + port, "Origin": "http://localhost:" + port}, 200},
	}
	for _, tt := range tests {
		code, _ := call(t, base, tt.token, "Results.Run", `["SELECT 1"]`, tt.hdr)
		if code != tt.code {
			t.Errorf("%s: status %d, want %d", tt.name, code, tt.code)
		}
	}
	resp, err := http.Post(base+"/call/Results.Run?token="+srv.Token(), "application/json", strings.NewReader(`["SELECT 1"]`))
	if err != nil || resp.StatusCode != 200 {
		t.Errorf("?token=: %v %v", err, resp.StatusCode)
	}
	// The page's own files need no token; the events do.
	if resp, _ := http.Get(base + "/"); resp.StatusCode != 200 {
		t.Errorf("the page: %d", resp.StatusCode)
	}
	if resp, _ := http.Get(base + "/events"); resp.StatusCode != 401 {
		t.Errorf("events without token: %d", resp.StatusCode)
	}
	// Only loopback addresses.
	if _, err := srv.Listen("0.0.0.0:0"); err == nil || !strings.Contains(err.Error(), "not a loopback address") {
		t.Errorf("listen on all interfaces: %v", err)
	}
}

func TestCalls(t *testing.T) {
	srv, base := start(t)
	code, m := call(t, base, srv.Token(), "Results.Run", `["SELECT count(*) AS n FROM Track"]`, nil)
	res := m["result"].(map[string]any)
	if code != 200 || res["results"].([]any)[0].(map[string]any)["n"] != 3503.0 {
		t.Errorf("run: %d %v", code, m)
	}
	code, m = call(t, base, srv.Token(), "Datasets.Open", `["/no/such/file.db"]`, nil)
	if code != 200 || m["error"].(map[string]any)["type"] != "database" || m["error"].(map[string]any)["hint"] == "" {
		t.Errorf("an error: %d %v", code, m)
	}
	if code, _ := call(t, base, srv.Token(), "Datasets.Nope", `[]`, nil); code != 404 {
		t.Errorf("unknown method: %d", code)
	}
	if code, _ := call(t, base, srv.Token(), "Results.Run", `[1, 2]`, nil); code != 400 {
		t.Errorf("wrong arguments: %d", code)
	}
	if code, _ := call(t, base, srv.Token(), "Settings.Save", `[{"max_rows": "many"}]`, nil); code != 400 {
		t.Errorf("a badly typed argument: %d", code)
	}
}

func TestEventsAndDownloads(t *testing.T) {
	srv, base := start(t)
	req, _ := http.NewRequest("GET", base+"/events?token="+srv.Token(), nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := http.DefaultClient.Do(req.WithContext(ctx))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	got := make(chan string, 10)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "event: ") {
				got <- strings.TrimPrefix(sc.Text(), "event: ")
			}
		}
	}()
	if e := <-got; e != "window:title" {
		t.Errorf("first event %q, want the title", e)
	}
	call(t, base, srv.Token(), "Datasets.OpenDemo", `[]`, nil)
	seen := map[string]bool{}
	for !seen["dataset:changed"] {
		select {
		case e := <-got:
			seen[e] = true
		case <-ctx.Done():
			t.Fatal("no dataset:changed event")
		}
	}
	// An export in the browser mode is downloaded, once.
	code, m := call(t, base, srv.Token(), "Export.Run", `[{"sql": "SELECT * FROM Genre", "out": "", "format": "xlsx"}]`, nil)
	res, _ := m["result"].(map[string]any)
	if code != 200 || res == nil || res["download"] == nil || res["rows"] != 25.0 {
		t.Fatalf("export: %d %v", code, m)
	}
	dl := base + res["download"].(string)
	if r, _ := http.Get(dl); r.StatusCode != 401 {
		t.Errorf("download without token: %d", r.StatusCode)
	}
	r, err := http.Get(dl + "?token=" + srv.Token() + "&name=genres.xlsx")
	if err != nil || r.StatusCode != 200 {
		t.Fatalf("download: %v", err)
	}
	b, _ := io.ReadAll(r.Body)
	r.Body.Close()
	if string(b[:2]) != "PK" || !strings.Contains(r.Header.Get("Content-Disposition"), "genres.xlsx") {
		t.Errorf("downloaded %d bytes, disposition %q", len(b), r.Header.Get("Content-Disposition"))
	}
}
