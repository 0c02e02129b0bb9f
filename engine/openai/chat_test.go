package openai

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"querent/engine"
	"querent/engine/ollama/ollamatest"
	"querent/engine/openai/openaitest"
)

// secret is the API key of the tests: no error may name it.
const secret = "sk-test-7f3a9c-never-shown"

func client(t *testing.T, base, key string, timeout time.Duration) *Client {
	t.Helper()
	c, err := New(Config{BaseURL: base, APIKey: key, RequestTimeout: timeout})
	if err != nil {
		t.Fatalf("New(%q): %v", base, err)
	}
	return c
}

// code returns err's engine code, failing when err is not an *engine.Error
// or names the key.
func code(t *testing.T, err error) string {
	t.Helper()
	var e *engine.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %T %v is not an *engine.Error", err, err)
	}
	for _, s := range []string{e.Message, e.Hint, e.Error(), fmt.Sprint(e.Err)} {
		if strings.Contains(s, secret) {
			t.Fatalf("the error names the API key: %q", s)
		}
	}
	if e.Code != engine.CodeCancelled && e.Hint == "" && len(e.HintWords.Parts) == 0 && e.HintWords.Key == "" {
		t.Errorf("the error %q has no hint", e.Message)
	}
	return e.Code
}

func TestChatStreamsWithSchemaUsageAndKey(t *testing.T) {
	fake := openaitest.New(t, ollamatest.Answer("SELECT count(*) AS n FROM Track", "Counts the tracks."))
	fake.RequireKey(secret)
	c := client(t, fake.URL, secret, 5*time.Second)
	var pieces []string
	schema := []byte(`{"type":"object","properties":{"sql":{"type":"string"}},"required":["sql"]}`)
	resp, err := c.Chat(context.Background(), engine.ChatRequest{Model: "qwen2.5-coder-7b-instruct", Format: schema, NumCtx: 8192, NumPredict: 512,
		Messages: []engine.Message{{Role: "system", Content: "You write SQL."}, {Role: "user", Content: "How many tracks?"}},
		OnToken:  func(s string) { pieces = append(pieces, s) }})
	if err != nil {
		t.Fatal(err)
	}
	want := ollamatest.SQLAnswer("SELECT count(*) AS n FROM Track")
	if resp.Content != want || strings.Join(pieces, "") != want || len(pieces) < 2 {
		t.Errorf("content %q, %d pieces %q", resp.Content, len(pieces), pieces)
	}
	if resp.PromptTokens < 5 || resp.OutputTokens != len(pieces) || resp.DoneReason != "stop" || resp.FirstToken <= 0 || resp.Duration < resp.FirstToken {
		t.Errorf("response %+v", resp)
	}
	req := fake.Requests()[0]
	if !req.Stream || !req.IncludeUsage || req.MaxTokens != 512 || req.Temperature == nil || *req.Temperature != 0 ||
		req.ResponseFormat == nil || req.ResponseFormat.Type != "json_schema" || string(req.Format) != string(schema) ||
		req.Authorization != "Bearer "+secret || len(req.Messages) != 2 {
		t.Errorf("request %+v", req)
	}
	if strings.Contains(req.Raw, "num_ctx") || strings.Contains(req.Raw, "8192") {
		t.Errorf("the API has no num_ctx, yet the request carries it: %s", req.Raw)
	}
}

func TestChatWithoutFormatSendsNoResponseFormat(t *testing.T) {
	fake := openaitest.New(t, ollamatest.Reply{Content: "Hello."})
	fake.NoUsage()
	c := client(t, fake.URL, "", 5*time.Second)
	resp, err := c.Chat(context.Background(), engine.ChatRequest{Model: "qwen2.5-coder-7b-instruct", Messages: []engine.Message{{Role: "user", Content: "hi"}}})
	if err != nil {
		t.Fatal(err)
	}
	// A server that sends no usage gives no counts rather than made-up ones.
	if resp.Content != "Hello." || resp.PromptTokens != 0 || resp.OutputTokens != 0 {
		t.Errorf("response %+v", resp)
	}
	req := fake.Requests()[0]
	if req.ResponseFormat != nil || req.MaxTokens != 0 || req.Authorization != "" || strings.Contains(req.Raw, "max_tokens") {
		t.Errorf("request %s (authorization %q)", req.Raw, req.Authorization)
	}
}

func TestChatCutOffIsModelError(t *testing.T) {
	fake := openaitest.New(t, ollamatest.Reply{Content: `{"sql":"SELECT`, DoneReason: "length"})
	c := client(t, fake.URL, "", 5*time.Second)
	resp, err := c.Chat(context.Background(), engine.ChatRequest{Model: "qwen2.5-coder-7b-instruct", NumPredict: 3})
	if code(t, err) != engine.CodeModelError || resp == nil || resp.Content != `{"sql":"SELECT` || resp.DoneReason != "length" ||
		!strings.Contains(err.Error(), "cut off after") {
		t.Fatalf("response %+v, error %v", resp, err)
	}
}

func TestChatAPIKey(t *testing.T) {
	fake := openaitest.New(t)
	fake.RequireKey(secret)
	_, err := client(t, fake.URL, "", 5*time.Second).Chat(context.Background(), engine.ChatRequest{Model: "qwen2.5-coder-7b-instruct"})
	if code(t, err) != engine.CodeLLMUnavailable || !strings.Contains(err.Error(), "asks for an API key") || !strings.Contains(engine.AsError(err).Hint, "OPENAI_API_KEY") {
		t.Errorf("no key: %v (%s)", err, engine.AsError(err).Hint)
	}
	_, err = client(t, fake.URL, "sk-wrong", 5*time.Second).Models(context.Background())
	if code(t, err) != engine.CodeLLMUnavailable || !strings.Contains(err.Error(), "refused the API key (401 Unauthorized)") || strings.Contains(err.Error(), "sk-wrong") {
		t.Errorf("a wrong key: %v", err)
	}
	// The key comes from OPENAI_API_KEY when the settings give none.
	t.Setenv("OPENAI_API_KEY", secret)
	if ms, err := client(t, fake.URL, "", 5*time.Second).Models(context.Background()); err != nil || len(ms) != 2 {
		t.Errorf("with OPENAI_API_KEY: %v %v", ms, err)
	}
}

func TestChatUnknownModelIsMissing(t *testing.T) {
	fake := openaitest.New(t)
	_, err := client(t, fake.URL, "", 5*time.Second).Chat(context.Background(), engine.ChatRequest{Model: "llama-3-70b"})
	if code(t, err) != engine.CodeModelMissing || !strings.Contains(err.Error(), "has no model llama-3-70b") {
		t.Errorf("%v", err)
	}
}

func TestChatServerErrors(t *testing.T) {
	for _, tc := range []struct {
		rep  ollamatest.Reply
		code string
		want string
	}{
		{ollamatest.Reply{Status: 503, Error: "Loading model"}, engine.CodeLLMUnavailable, "is busy: Loading model"},
		{ollamatest.Reply{Status: 400, Error: "This model's maximum context length is 4096 tokens"}, engine.CodeModelError, "context window"},
		{ollamatest.Reply{Status: 500, Error: "failed to parse grammar"}, engine.CodeModelError, "response_format"},
	} {
		fake := openaitest.New(t, tc.rep)
		_, err := client(t, fake.URL, secret, 5*time.Second).Chat(context.Background(), engine.ChatRequest{Model: "qwen2.5-coder-7b-instruct"})
		if code(t, err) != tc.code || !strings.Contains(err.Error()+" "+engine.AsError(err).Hint, tc.want) {
			t.Errorf("%+v: %v (%s)", tc.rep, err, engine.AsError(err).Hint)
		}
	}
}

func TestChatHungServerTimesOut(t *testing.T) {
	fake := openaitest.New(t, ollamatest.Reply{Content: "never", Delay: openaitest.Hang})
	c := client(t, fake.URL, "", 200*time.Millisecond)
	_, err := c.Chat(context.Background(), engine.ChatRequest{Model: "qwen2.5-coder-7b-instruct"})
	if code(t, err) != engine.CodeLLMUnavailable || !strings.Contains(err.Error(), "did not answer within 200ms") {
		t.Fatalf("%v", err)
	}
	waitGone(t, fake)
}

// waitGone waits for the fake to see its client go away.
func waitGone(t *testing.T, fake *openaitest.Server) {
	t.Helper()
	select {
	case <-fake.Gone():
	case <-time.After(10 * time.Second):
		t.Fatal("the server never saw the request end")
	}
}

func TestChatCancelStopsTheRequest(t *testing.T) {
	fake := openaitest.New(t, ollamatest.Reply{Content: "never", Delay: openaitest.Hang})
	c := client(t, fake.URL, "", time.Minute)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-fake.Started()
		cancel()
	}()
	_, err := c.Chat(ctx, engine.ChatRequest{Model: "qwen2.5-coder-7b-instruct"})
	if code(t, err) != engine.CodeCancelled {
		t.Fatalf("%v", err)
	}
	waitGone(t, fake)
}

func TestChatCancelWhileStreaming(t *testing.T) {
	fake := openaitest.New(t, ollamatest.Reply{Content: strings.Repeat("SELECT 1; ", 200)})
	fake.SetRate(50)
	c := client(t, fake.URL, "", time.Minute)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := 0
	_, err := c.Chat(ctx, engine.ChatRequest{Model: "qwen2.5-coder-7b-instruct", OnToken: func(string) {
		if n++; n == 2 {
			cancel()
		}
	}})
	if code(t, err) != engine.CodeCancelled || n < 2 {
		t.Fatalf("%d tokens, %v", n, err)
	}
	waitGone(t, fake)
}

// serveRaw starts a server that answers every request with h.
func serveRaw(t *testing.T, h http.HandlerFunc) string {
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

func TestChatStreamThatBreaksOffIsLost(t *testing.T) {
	base := serveRaw(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "data: {\"choices\":[{\"delta\":{\"content\":\"SEL\"}}]}\n\n")
	})
	_, err := client(t, base, "", 5*time.Second).Chat(context.Background(), engine.ChatRequest{Model: "m"})
	if code(t, err) != engine.CodeLLMUnavailable || !strings.Contains(err.Error(), "before the answer was complete") {
		t.Errorf("%v", err)
	}
}

func TestChatErrorEventInTheStream(t *testing.T) {
	base := serveRaw(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "data: {\"choices\":[{\"delta\":{\"content\":\"SEL\"}}]}\n\ndata: {\"error\":{\"message\":\"out of memory\"}}\n\n")
	})
	_, err := client(t, base, "", 5*time.Second).Chat(context.Background(), engine.ChatRequest{Model: "m"})
	if code(t, err) != engine.CodeModelError || !strings.Contains(err.Error(), "out of memory") || !strings.Contains(engine.AsError(err).Hint, "memory") {
		t.Errorf("%v", err)
	}
}

func TestChatAnswerNotStreamed(t *testing.T) {
	// A server that ignores "stream": one chat.completion document.
	base := serveRaw(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		fmt.Fprint(w, `{"choices":[{"message":{"role":"assistant","content":"{\"sql\":\"SELECT 1\"}","reasoning_content":"hmm"},"finish_reason":"stop"}],"usage":{"prompt_tokens":40,"completion_tokens":6}}`)
	})
	var got string
	resp, err := client(t, base, "", 5*time.Second).Chat(context.Background(), engine.ChatRequest{Model: "m", OnToken: func(s string) { got += s }})
	if err != nil || resp.Content != `{"sql":"SELECT 1"}` || got != resp.Content || resp.PromptTokens != 40 || resp.OutputTokens != 6 {
		t.Errorf("%+v %v", resp, err)
	}
}

func TestNotRunning(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	_, err = client(t, "http://"+addr+"/v1", secret, 5*time.Second).Models(context.Background())
	if code(t, err) != engine.CodeLLMUnavailable || !strings.Contains(err.Error(), "no model server is running at http://"+addr+"/v1") ||
		!strings.Contains(engine.AsError(err).Hint, "llama-server") {
		t.Errorf("%v", err)
	}
}

func TestModels(t *testing.T) {
	fake := openaitest.New(t)
	fake.SetModels("qwen3-8b", "nomic-embed-text-v1.5", "deepseek-coder")
	ms, err := client(t, fake.URL, "", 5*time.Second).Models(context.Background())
	if err != nil || len(ms) != 3 || ms[0].Name != "deepseek-coder" || ms[2].Name != "qwen3-8b" {
		t.Errorf("%+v %v", ms, err)
	}
	// A base URL without /v1 reaches no OpenAI API.
	base := strings.TrimSuffix(fake.URL, "/v1") + "/api"
	_, err = client(t, base, "", 5*time.Second).Models(context.Background())
	if code(t, err) != engine.CodeLLMUnavailable || !strings.Contains(err.Error(), "does not answer like an OpenAI-compatible server") {
		t.Errorf("%v", err)
	}
	html := serveRaw(t, func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "<html>hello</html>") })
	if _, err := client(t, html, "", 5*time.Second).Models(context.Background()); code(t, err) != engine.CodeLLMUnavailable {
		t.Errorf("a web page: %v", err)
	}
}

func TestEmbed(t *testing.T) {
	fake := openaitest.New(t)
	c := client(t, fake.URL, "", 5*time.Second)
	v, err := c.Embed(context.Background(), "nomic-embed-text", []string{"albums", "artists", "albums"})
	if err != nil || len(v) != 3 || len(v[0]) != 3 || fmt.Sprint(v[0]) != fmt.Sprint(v[2]) {
		t.Errorf("%v %v", v, err)
	}
	fake.NoEmbeddings()
	_, err = c.Embed(context.Background(), "nomic-embed-text", []string{"albums"})
	if code(t, err) != engine.CodeModelError || !strings.Contains(err.Error(), "makes no embeddings") {
		t.Errorf("%v", err)
	}
}

func TestPullIsOllamas(t *testing.T) {
	fake := openaitest.New(t)
	err := client(t, fake.URL, "", 5*time.Second).Pull(context.Background(), "qwen2.5-coder:7b", nil)
	if code(t, err) != engine.CodeModelMissing || !strings.Contains(err.Error(), "only into Ollama") || !strings.Contains(engine.AsError(err).Hint, "qwen2.5-coder:7b") {
		t.Errorf("%v", err)
	}
	if len(fake.Paths()) != 0 {
		t.Errorf("a pull made requests: %v", fake.Paths())
	}
}
