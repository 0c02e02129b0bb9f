package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"querent/engine"
	"querent/engine/words"
)

// call describes one request, for the error messages.
type call struct {
	kind  string        // "chat", "embed" or "list"
	model string        // the model asked for, "" for list
	limit time.Duration // our own deadline for the call
}

// errTimedOut is the cause of a call context ended by our own deadline;
// it tells it apart from the caller's.
var errTimedOut = errors.New("openai: request timeout")

// withLimit derives the call context: the caller's, bounded by limit.
func withLimit(ctx context.Context, limit time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeoutCause(ctx, limit, errTimedOut)
}

// post sends body as JSON to the API root's path, with the API key.
func (c *Client) post(ctx context.Context, path string, body any) (*http.Response, error) {
	b, err := json.Marshal(body)
	if err != nil {
		return nil, fmt.Errorf("encoding the request: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+path, bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("making the request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream, application/json")
	return c.send(req)
}

// get sends a GET to the API root's path, with the API key.
func (c *Client) get(ctx context.Context, path string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+path, nil)
	if err != nil {
		return nil, fmt.Errorf("making the request: %w", err)
	}
	req.Header.Set("Accept", "application/json")
	return c.send(req)
}

func (c *Client) send(req *http.Request) (*http.Response, error) {
	if c.key != "" {
		req.Header.Set("Authorization", "Bearer "+c.key)
	}
	return c.http.Do(req)
}

// apiError is an error as these servers write it: {"error": {"message":
// …, "type": …, "code": …}} (OpenAI, vLLM, llama-server, LM Studio), or a
// plain {"error": "…"} (some proxies), or {"message": …}.
type apiError struct {
	Status  int    `json:"-"`
	Message string `json:"message"`
	Type    string `json:"type"`
	Code    any    `json:"code"`
}

func (e *apiError) Error() string {
	if e.Status != 0 {
		return fmt.Sprintf("%d %s: %s", e.Status, http.StatusText(e.Status), e.Message)
	}
	return e.Message
}

func (e *apiError) withStatus(status int) *apiError {
	e.Status = status
	return e
}

// UnmarshalJSON accepts the error object or a plain string.
func (e *apiError) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		e.Message = s
		return nil
	}
	type plain apiError
	return json.Unmarshal(b, (*plain)(e))
}

// readStatus reads a response that is not 200 into an *apiError.
func readStatus(resp *http.Response) error {
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	var doc struct {
		Error   *apiError `json:"error"`
		Message string    `json:"message"`
		Detail  any       `json:"detail"`
	}
	e := &apiError{Status: resp.StatusCode}
	if json.Unmarshal(b, &doc) == nil {
		switch {
		case doc.Error != nil:
			e = doc.Error.withStatus(resp.StatusCode)
		case doc.Message != "":
			e.Message = doc.Message
		case doc.Detail != nil:
			e.Message = fmt.Sprint(doc.Detail)
		}
	} else {
		e.Message = string(b)
	}
	e.Message = short(e.Message)
	return e
}

// fail translates err, met by call cl, into an *engine.Error. ctx is the
// caller's context and callCtx the one derived from it with our deadline;
// err may be nil when the stream ended early, which reads as a lost
// connection unless a context ended.
func (c *Client) fail(ctx, callCtx context.Context, cl call, err error) error {
	if ctx.Err() != nil {
		var e *engine.Error
		if errors.As(context.Cause(ctx), &e) {
			return e
		}
		return engine.AsError(ctx.Err())
	}
	if callCtx.Err() != nil && errors.Is(context.Cause(callCtx), errTimedOut) {
		return c.timedOut(cl, err)
	}
	if err == nil {
		return c.lost(cl, io.ErrUnexpectedEOF)
	}
	var ae *apiError
	if errors.As(err, &ae) {
		return c.statusError(cl, ae, err)
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return engine.Errorf(engine.CodeLLMUnavailable, "the model server at %s is not reachable: the host %s is not known",
			c.base, dns.Name).WithHint("%s", checkURL).WithErr(err)
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		if op.Timeout() {
			return engine.Errorf(engine.CodeLLMUnavailable, "the model server at %s is not reachable: the connection timed out",
				c.base).WithHint("%s", startHint).WithErr(err)
		}
		return engine.Errorf(engine.CodeLLMUnavailable, "no model server is running at %s", c.base).WithHint("%s", startHint).WithErr(err)
	}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	if errors.As(err, &syn) || errors.As(err, &typ) {
		if cl.kind == "list" {
			return c.notCompatible("GET /models", err.Error(), err)
		}
		return engine.Errorf(engine.CodeModelError, "the model server at %s sent an answer Querent cannot read: %s", c.base, short(err.Error())).WithHint(
			"try again; if it keeps happening, check that %s speaks the OpenAI-compatible API", c.base).WithErr(err)
	}
	return c.lost(cl, err)
}

// statusError maps an HTTP error status (or an error event) with the
// server's message.
func (c *Client) statusError(cl call, ae *apiError, err error) error {
	msg := ae.Message
	lower := strings.ToLower(msg + " " + ae.Type + " " + fmt.Sprint(ae.Code))
	switch {
	case ae.Status == http.StatusUnauthorized || ae.Status == http.StatusForbidden:
		what, hint := "refused the API key", "check the key in OPENAI_API_KEY or in the settings: the server's administrator has the right one"
		if c.key == "" {
			what, hint = "asks for an API key", "set OPENAI_API_KEY, or the API key in the settings, to a key that server accepts"
		}
		return engine.Errorf(engine.CodeLLMUnavailable, "the model server at %s %s (%d %s)", c.base, what, ae.Status, http.StatusText(ae.Status)).WithHint(
			"%s", hint).WithErr(err)
	case cl.kind == "list":
		if ae.Status == http.StatusServiceUnavailable || ae.Status == http.StatusTooManyRequests {
			return c.busy(msg, err)
		}
		return c.notCompatible("GET /models", err.Error(), err)
	case strings.Contains(lower, "model_not_found") ||
		strings.Contains(lower, "model") && (strings.Contains(lower, "does not exist") || strings.Contains(lower, "not found") || ae.Status == http.StatusNotFound):
		return c.missing(cl.model, err)
	case ae.Status == http.StatusNotFound && cl.kind == "embed":
		return engine.Errorf(engine.CodeModelError, "the model server at %s makes no embeddings (POST /embeddings: %d %s)",
			c.base, ae.Status, http.StatusText(ae.Status)).WithHint(
			"questions work without them (the schema is then chosen by names); to use them, serve an embedding model with a server that has /v1/embeddings").WithErr(err)
	case ae.Status == http.StatusNotFound:
		// No word of a model: the path itself is unknown (a base URL
		// without /v1, or a server that is not OpenAI-compatible).
		return c.notCompatible("POST /"+pathOf(cl), err.Error(), err)
	case ae.Status == http.StatusServiceUnavailable || ae.Status == http.StatusTooManyRequests:
		return c.busy(msg, err)
	}
	if msg == "" {
		msg = http.StatusText(ae.Status)
	}
	what := "could not answer"
	if cl.kind == "embed" {
		what = "could not make embeddings"
	}
	status := ""
	if ae.Status != 0 {
		status = fmt.Sprintf(" (%d)", ae.Status)
	}
	return engine.Errorf(engine.CodeModelError, "the model server %s%s: %s", what, status, msg).WithHint(
		"%s", failHint(lower)).WithErr(err)
}

func pathOf(cl call) string {
	if cl.kind == "embed" {
		return "embeddings"
	}
	return "chat/completions"
}

// failHint is the next step after the server's own error message.
func failHint(lower string) string {
	switch {
	case strings.Contains(lower, "context") && (strings.Contains(lower, "length") || strings.Contains(lower, "size") || strings.Contains(lower, "window")):
		return "the prompt does not fit the model's context window: load the model with a larger context on that server, or ask about fewer tables"
	case strings.Contains(lower, "response_format") || strings.Contains(lower, "json_schema") || strings.Contains(lower, "grammar"):
		return "the server could not follow the answer's JSON schema (response_format json_schema): update it to a version that supports structured output"
	case strings.Contains(lower, "memory"):
		return "the model needs more memory than is free on that server: close other programs there or choose a smaller model"
	}
	return "try again; if it keeps failing, the model server's log says more"
}

// checkURL says where the server's address comes from.
const checkURL = "check the address given by --llm-url, OPENAI_BASE_URL or the settings; it usually ends in /v1, for example http://127.0.0.1:1234/v1"

// startHint tells how to start the usual servers.
const startHint = "start the server (LM Studio: Developer, Start Server; llama.cpp: llama-server -m MODEL.gguf; vLLM: vllm serve MODEL; Jan: Settings, Local API Server), " +
	"or " + checkURL + "; direct SQL works without it"

func (c *Client) missing(model string, err error) error {
	return engine.Errorf(engine.CodeModelMissing, "the model server at %s has no model %s", c.base, model).WithHint(
		"choose one of the models it lists (GET %s/models), or load %s on that server (LM Studio: lms load; llama.cpp: llama-server -m; vLLM: vllm serve)",
		c.base, model).WithErr(err)
}

func (c *Client) busy(msg string, err error) error {
	return engine.Errorf(engine.CodeLLMUnavailable, "the model server at %s is busy: %s", c.base, msg).WithHint(
		"it is answering other requests; try again in a moment").WithErr(err)
}

func (c *Client) notCompatible(path, msg string, err error) error {
	return engine.Errorf(engine.CodeLLMUnavailable, "the server at %s does not answer like an OpenAI-compatible server (%s: %s)",
		c.base, path, short(msg)).WithHint("%s", checkURL).WithErr(err)
}

func (c *Client) lost(cl call, err error) error {
	what := "the connection to the model server at " + c.base + " was lost"
	if cl.kind == "chat" {
		what += " before the answer was complete"
	}
	return engine.Errorf(engine.CodeLLMUnavailable, "%s", what).WithHint(
		"the server may have stopped or crashed (for example out of memory); check that it runs and try again").WithErr(err)
}

func (c *Client) timedOut(cl call, err error) error {
	var e *engine.Error
	switch cl.kind {
	case "chat":
		e = engine.Errorf(engine.CodeLLMUnavailable, "the model did not answer within %s", cl.limit).SayHint(
			words.New("ollama.slow_first", words.ModelTimeout))
	case "embed":
		e = engine.Errorf(engine.CodeLLMUnavailable, "the model %s made no embeddings within %s", cl.model, cl.limit).WithHint(
			"a first request loads the model and can be slow; try again")
	default:
		e = engine.Errorf(engine.CodeLLMUnavailable, "the model server at %s did not answer within %s", c.base, cl.limit).WithHint(
			"it may be busy loading a model or stuck; try again, or restart it")
	}
	if err == nil {
		err = context.DeadlineExceeded
	}
	return e.WithErr(err)
}

// short keeps an error text readable: one line, at most 300 bytes.
func short(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 300 {
		n := 300
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		s = s[:n] + "…"
	}
	return s
}
