package ask_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"querent/engine"
	"querent/engine/ask"
	"querent/engine/ollama"
	"querent/engine/ollama/ollamatest"
	"querent/engine/sensitive"
)

// TestRealOllamaSensitive is issue 28 through a real Ollama server: every
// request it received (recorded by a proxy in front of it) holds no value
// of the marked column — the schema, the rows it explained — while the
// analyst's answer has them.
func TestRealOllamaSensitive(t *testing.T) {
	host := ollamatest.RealHost(t)
	ollamatest.Scripted(t, host, "qa-sensitive", ollamatest.SQLAnswer("SELECT FirstName, Email, lower(Email) AS mail FROM Customer ORDER BY CustomerId LIMIT 5"), 32768)
	ollamatest.Scripted(t, host, "qa-sensitive-explain", ollamatest.ExplainAnswer("Five customers and their addresses.", "Which country has the most customers?"), 32768)
	target, err := url.Parse(host)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var bodies []string
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.FlushInterval = -1
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(b))
		mu.Lock()
		bodies = append(bodies, string(b))
		mu.Unlock()
		proxy.ServeHTTP(w, r)
	}))
	defer srv.Close()
	a, path := realAsker(t, "qa-sensitive", "qa-sensitive-explain")
	m, err := ollama.New(ollama.Config{Host: srv.URL, RequestTimeout: 6 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	a.Model = m
	a.DB.(engine.SensitiveMarker).SetSensitive(sensitive.New("Customer.Email"))
	ans, err := a.Ask(context.Background(), "List five customers with their email addresses", nil, ask.Options{Today: today, NoVote: true})
	if err != nil {
		t.Fatal(err)
	}
	if ans.RowCount != 5 || ans.Results.Values[0][1] != "luisg@embraer.com.br" || !ans.Columns[1].Sensitive || ans.Explanation == "" {
		t.Fatalf("answer %+v", ans)
	}
	mu.Lock()
	defer mu.Unlock()
	chats := 0
	all := strings.ToLower(strings.Join(bodies, "\n"))
	for _, b := range bodies {
		if strings.Contains(b, `"messages"`) {
			chats++
		}
	}
	if chats < 2 || !strings.Contains(all, "[masked]") || !strings.Contains(all, "email") {
		t.Fatalf("%d chat requests recorded", chats)
	}
	for _, e := range emails(t, path) {
		if strings.Contains(all, strings.ToLower(e)) {
			t.Errorf("a request to the real server holds %s", e)
		}
	}
}
