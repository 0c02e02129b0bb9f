// Package openai implements the engine's model port (engine.Model) over the
// OpenAI-compatible HTTP API that LM Studio, llama.cpp's llama-server,
// vLLM, Jan and many others speak: GET /v1/models, POST
// /v1/chat/completions (streamed as server-sent events, the answer's format
// as response_format json_schema, the counts from usage) and POST
// /v1/embeddings.
//
// It uses the standard library (net/http, encoding/json and a small
// server-sent events reader) rather than github.com/openai/openai-go: the
// three calls Querent makes fit in a few hundred lines, and the official
// client retries failed requests on its own (twice by default, with
// back-off), reads errors the way api.openai.com writes them, and knows
// nothing of the fields local servers add; Querent needs every request
// bounded by its own deadline and every failure read for an analyst.
//
// Every call is bounded as in engine/ollama: Chat by Config.RequestTimeout
// (default 120 s, the command line's --model-timeout), listing by 10 s,
// embeddings by 60 s. The caller's context is honoured as well; whichever
// ends first wins, and ending it closes the connection (the server sees the
// request end and stops generating).
//
// Every error is an *engine.Error with the codes of engine/ollama:
// llm_unavailable (nothing listens at the address, the server refused the
// API key, is busy or too slow), model_missing (the server has no such
// model; downloads are Ollama's), model_error (the server refused the
// request or the answer is unusable, a cut-off answer included) and
// cancelled (the caller's context ended).
//
// The API key, when there is one, travels only in the Authorization header
// (Bearer): no error message, hint or cause names it.
package openai

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"querent/engine"
)

// Timeouts used when Config leaves them unset, and for the calls that
// Config does not bound.
const (
	// DefaultRequestTimeout bounds one Chat request (--model-timeout).
	DefaultRequestTimeout = 120 * time.Second
	// listTimeout bounds the model list: a UI waits on it.
	listTimeout = 10 * time.Second
	// embedTimeout bounds one embedding request, model load included.
	embedTimeout = 60 * time.Second
	// dialTimeout bounds opening a connection.
	dialTimeout = 10 * time.Second
)

// Config configures a Client.
type Config struct {
	// BaseURL is the server's API root, for example
	// http://127.0.0.1:1234/v1 (LM Studio), http://127.0.0.1:8080/v1
	// (llama-server), http://gpu-box:8000/v1 (vLLM) or
	// http://127.0.0.1:1337/v1 (Jan). "" uses $OPENAI_BASE_URL. See
	// ParseBaseURL for the accepted forms.
	BaseURL string
	// APIKey, when set, is sent as "Authorization: Bearer KEY"; local
	// servers need none. "" uses $OPENAI_API_KEY (which may be unset).
	APIKey string
	// RequestTimeout bounds each Chat request (default 120 s).
	RequestTimeout time.Duration
	// HTTPClient, when set, carries the requests; by default the client
	// has a 10 s connection timeout and relies on the per-call deadlines.
	HTTPClient *http.Client
}

// Client implements engine.Model over an OpenAI-compatible server. It is
// safe for concurrent use.
type Client struct {
	http       *http.Client
	base       string // canonical API root, e.g. http://127.0.0.1:1234/v1
	key        string
	reqTimeout time.Duration
	listTO     time.Duration
	embedTO    time.Duration
}

var _ engine.Model = (*Client)(nil)

// New returns a client for cfg. It does not contact the server; it fails
// only on an address it cannot read, with a usage error (which never
// repeats a user name or password written in the address).
func New(cfg Config) (*Client, error) {
	raw, from := cfg.BaseURL, "--llm-url"
	if strings.TrimSpace(raw) == "" {
		raw, from = os.Getenv("OPENAI_BASE_URL"), "OPENAI_BASE_URL"
	}
	base, err := ParseBaseURL(raw)
	if err != nil {
		return nil, engine.Errorf(engine.CodeUsage, "invalid OpenAI-compatible server URL: %v", err).WithHint(
			"fix %s: give the server's API root, for example http://127.0.0.1:1234/v1 (LM Studio) or http://127.0.0.1:8080/v1 (llama-server)", from).WithErr(err)
	}
	key := strings.TrimSpace(cfg.APIKey)
	if key == "" {
		key = strings.TrimSpace(os.Getenv("OPENAI_API_KEY"))
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = defaultHTTPClient()
	}
	timeout := cfg.RequestTimeout
	if timeout <= 0 {
		timeout = DefaultRequestTimeout
	}
	return &Client{http: hc, base: base.String(), key: key, reqTimeout: timeout, listTO: listTimeout, embedTO: embedTimeout}, nil
}

// Host returns the API root the client talks to, e.g.
// "http://127.0.0.1:1234/v1" (never the API key).
func (c *Client) Host() string { return c.base }

// Kind names the server's API for the faces: "openai".
func (c *Client) Kind() string { return "openai" }

// RequestTimeout returns the bound of one Chat request.
func (c *Client) RequestTimeout() time.Duration { return c.reqTimeout }

// defaultHTTPClient is http.DefaultTransport with a bounded dial and no
// client-wide Timeout: every call carries its own deadline.
func defaultHTTPClient() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.DialContext = (&net.Dialer{Timeout: dialTimeout, KeepAlive: 30 * time.Second}).DialContext
	return &http.Client{Transport: t}
}

// errCredentials refuses an address with a user name or password, without
// repeating them.
var errCredentials = errors.New("the address holds a user name or password (give the key with OPENAI_API_KEY or the settings instead)")

// ParseBaseURL reads a server's API root: "http://host:port/v1",
// "https://host/openai/v1", or "host:port" (http). Without a path the
// root is /v1, where every server named in the package comment answers; a
// trailing slash is dropped. An unspecified host (0.0.0.0, ::) means this
// machine's loopback, as for Ollama. A user name or password, a query or a
// fragment are refused: the key goes in OPENAI_API_KEY or the settings,
// never in an address that is shown.
func ParseBaseURL(s string) (*url.URL, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, fmt.Errorf("no address was given")
	}
	if !strings.Contains(s, "://") {
		s = "http://" + s
	}
	authority, _, _ := strings.Cut(strings.SplitN(s, "://", 2)[1], "/")
	if strings.Contains(authority, "@") {
		return nil, errCredentials
	}
	u, err := url.Parse(s)
	if err != nil {
		return nil, fmt.Errorf("%q is not a URL", s)
	}
	u.Scheme = strings.ToLower(u.Scheme)
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, fmt.Errorf("unsupported scheme %q (use http or https)", u.Scheme)
	case u.User != nil:
		return nil, errCredentials
	case u.RawQuery != "" || u.Fragment != "":
		return nil, fmt.Errorf("%q has a query or fragment; give only scheme, host, port and path", s)
	case u.Hostname() == "":
		return nil, fmt.Errorf("%q has no host", s)
	}
	if p := u.Port(); p != "" {
		var n int
		if _, err := fmt.Sscanf(p, "%d", &n); err != nil || n < 1 || n > 65535 || fmt.Sprint(n) != p {
			return nil, fmt.Errorf("bad port %q (want 1-65535)", p)
		}
	}
	switch h := u.Hostname(); h {
	case "0.0.0.0":
		u.Host = strings.Replace(u.Host, h, "127.0.0.1", 1)
	case "::":
		u.Host = strings.Replace(u.Host, "[::]", "[::1]", 1)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	if u.Path == "" {
		u.Path = "/v1"
	}
	u.RawPath = ""
	return u, nil
}
