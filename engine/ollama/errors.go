package ollama

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ollama/ollama/api"

	"querent/engine"
	"querent/engine/words"
)

// call describes one request, for the error messages.
type call struct {
	kind  string        // "chat", "embed", "list", "version" or "pull"
	model string        // the model asked for, "" for list and version
	limit time.Duration // our own deadline for the call
}

// errTimedOut is the cause of a call context ended by our own deadline;
// it tells it apart from the caller's.
var errTimedOut = errors.New("ollama: request timeout")

// withLimit derives the call context: the caller's, bounded by limit.
func withLimit(ctx context.Context, limit time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeoutCause(ctx, limit, errTimedOut)
}

// fail translates err, returned by the api package for call cl, into an
// *engine.Error. ctx is the caller's context and callCtx the one derived
// from it with our deadline; err may be nil when the stream ended early
// (the api package does not report a broken stream), which reads as a lost
// connection unless a context ended.
func (c *Client) fail(ctx, callCtx context.Context, cl call, err error) error {
	// The caller's cancellation or deadline comes first: whatever broke
	// next was a consequence of it.
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

	var se api.StatusError
	if errors.As(err, &se) {
		return c.statusError(cl, se.StatusCode, se.ErrorMessage, err)
	}
	var ae api.AuthorizationError
	if errors.As(err, &ae) {
		return engine.Errorf(engine.CodeLLMUnavailable, "Ollama at %s refused the request (%d %s)",
			c.host, ae.StatusCode, http.StatusText(ae.StatusCode)).SayHint(
			words.New("ollama.no_credentials", checkAddress)).WithErr(err)
	}

	var dns *net.DNSError
	if errors.As(err, &dns) {
		return engine.Errorf(engine.CodeLLMUnavailable, "Ollama is not reachable at %s: the host %s is not known",
			c.host, dns.Name).SayHint(
			words.Seq(words.List(words.Semi, checkAddress, words.New("ollama.sql_works", words.SQL)))).WithErr(err)
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		if op.Timeout() {
			return engine.Errorf(engine.CodeLLMUnavailable, "Ollama is not reachable at %s: the connection timed out",
				c.host).SayHint(c.startHint()).WithErr(err)
		}
		return engine.Errorf(engine.CodeLLMUnavailable, "Ollama is not running at %s", c.host).SayHint(c.startHint()).WithErr(err)
	}
	if op != nil || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return c.lost(cl, err)
	}

	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	if errors.As(err, &syn) || errors.As(err, &typ) {
		if cl.kind == "list" || cl.kind == "version" {
			return c.notOllama(cl, err)
		}
		return engine.Errorf(engine.CodeModelError, "Ollama sent an answer Querent cannot read: %s", short(err.Error())).WithHint(
			"try again; if it keeps happening, check that %s is Ollama (version 0.5 or later)", c.host).WithErr(err)
	}

	// What is left is a message of Ollama's, sent as an error line in a
	// stream (or a line that is not JSON at all).
	msg := short(err.Error())
	switch cl.kind {
	case "pull":
		return c.pullError(cl, msg, err)
	case "list", "version":
		return c.notOllama(cl, err)
	}
	return engine.Errorf(engine.CodeModelError, "Ollama stopped with an error: %s", msg).WithHint(
		"%s", failHint(msg)).WithErr(err)
}

// statusError maps an HTTP error status with Ollama's message.
func (c *Client) statusError(cl call, status int, msg string, err error) error {
	msg = short(strings.TrimSpace(msg))
	lower := strings.ToLower(msg)
	switch {
	case cl.kind == "pull":
		return c.pullError(cl, msg, err)
	case cl.kind == "list" || cl.kind == "version":
		if status == http.StatusServiceUnavailable {
			return c.busy(msg, err)
		}
		return c.notOllama(cl, err)
	case status == http.StatusNotFound || strings.Contains(lower, "try pulling it first"):
		return c.missing(cl.model, err)
	case status == http.StatusServiceUnavailable:
		return c.busy(msg, err)
	case strings.Contains(lower, "does not support chat"):
		return engine.Errorf(engine.CodeModelError, "the model %s cannot chat (it only makes embeddings)", cl.model).WithHint(
			"choose a chat model; `ollama list` shows the installed ones").WithErr(err)
	case strings.Contains(lower, "does not support embeddings"):
		return engine.Errorf(engine.CodeModelError, "the model %s cannot make embeddings", cl.model).WithHint(
			"install an embedding model, for example: ollama pull nomic-embed-text").WithErr(err)
	}
	if msg == "" {
		msg = http.StatusText(status)
	}
	what := "could not answer"
	if cl.kind == "embed" {
		what = "could not make embeddings"
	}
	return engine.Errorf(engine.CodeModelError, "Ollama %s (%d): %s", what, status, msg).WithHint(
		"%s", failHint(msg)).WithErr(err)
}

// failHint is the next step after Ollama's own error message.
func failHint(msg string) string {
	if strings.Contains(strings.ToLower(msg), "memory") {
		return "the model needs more memory than is free: close other programs or choose a smaller model"
	}
	return "try again; if it keeps failing, Ollama's server log says more"
}

func (c *Client) missing(model string, err error) error {
	return engine.Errorf(engine.CodeModelMissing, "the model %s is not installed", model).WithHint(
		"download it with: ollama pull %s (or choose an installed one; `ollama list` shows them)", model).WithErr(err)
}

func (c *Client) busy(msg string, err error) error {
	return engine.Errorf(engine.CodeLLMUnavailable, "Ollama at %s is busy: %s", c.host, msg).WithHint(
		"it is answering other requests; try again in a moment").WithErr(err)
}

func (c *Client) notOllama(cl call, err error) error {
	path := "/api/tags"
	if cl.kind == "version" {
		path = "/api/version"
	}
	return engine.Errorf(engine.CodeLLMUnavailable, "the server at %s does not answer like Ollama (%s: %s)",
		c.host, path, short(err.Error())).SayHint(
		words.New("ollama.up_to_date", checkAddress)).WithErr(err)
}

func (c *Client) lost(cl call, err error) error {
	what := "the connection to Ollama at " + c.host + " was lost"
	switch cl.kind {
	case "chat":
		what += " before the answer was complete"
	case "pull":
		what += " before the download was complete"
	}
	return engine.Errorf(engine.CodeLLMUnavailable, "%s", what).WithHint(
		"Ollama may have stopped or crashed (for example out of memory); check that it runs and try again").WithErr(err)
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
	case "pull":
		e = engine.Errorf(engine.CodeModelMissing, "the download of %s stalled: no progress for %s", cl.model, cl.limit).WithHint(
			"check the network of the machine running Ollama and try again; the download resumes where it stopped")
	default:
		e = engine.Errorf(engine.CodeLLMUnavailable, "Ollama at %s did not answer within %s", c.host, cl.limit).WithHint(
			"it may be busy loading a model or stuck; try again, or restart Ollama")
	}
	if err == nil {
		err = context.DeadlineExceeded
	}
	return e.WithErr(err)
}

func (c *Client) pullError(cl call, msg string, err error) error {
	lower := strings.ToLower(msg)
	if strings.Contains(lower, "file does not exist") || strings.Contains(lower, "not found") {
		return engine.Errorf(engine.CodeModelMissing, "the model %s is not in the Ollama library", cl.model).WithHint(
			"check the name and tag (https://ollama.com/library lists the models)").WithErr(err)
	}
	return engine.Errorf(engine.CodeModelMissing, "Ollama could not download %s: %s", cl.model, msg).WithHint(
		"check that the machine running Ollama is online and has free disk space, then try again").WithErr(err)
}

// checkAddress says where Ollama's address comes from: --ollama on the
// command line, the page's Settings, or OLLAMA_HOST.
var checkAddress = words.New("ollama.check_address", words.Ollama)

// startHint tells how to start Ollama, and where the address came from
// when it is not the default.
func (c *Client) startHint() words.Sentence {
	h := words.Seq(words.New("ollama.start", words.New("ollama.sql_works_it", words.SQL)))
	if c.custom {
		h.Parts = append(h.Parts, words.New("ollama.elsewhere", checkAddress))
	}
	return h
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
