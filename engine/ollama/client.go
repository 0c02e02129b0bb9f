// Package ollama implements the engine's model port (engine.Model) over
// Ollama's HTTP API, using the official client github.com/ollama/ollama/api.
//
// Every call is bounded: Chat by Config.RequestTimeout (default 120 s, the
// command line's --model-timeout), listing and the version check by 10 s,
// embeddings by 60 s, and a download by the time between two progress lines.
// The caller's context is honoured as well; whichever ends first wins.
//
// Every error is an *engine.Error written for an analyst: what is wrong and
// what to do. The codes are llm_unavailable (Ollama not running, unreachable,
// busy or too slow), model_missing (the model is not installed, or a
// download failed), model_error (Ollama refused the request or the answer is
// unusable, a cut-off answer included) and cancelled (the caller's context
// ended).
package ollama

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ollama/ollama/api"

	"querent/engine"
	"querent/engine/words"
)

// DefaultHost is where Ollama listens unless told otherwise.
const DefaultHost = "http://127.0.0.1:11434"

// Timeouts used when Config leaves them unset, and for the calls that
// Config does not bound.
const (
	// DefaultRequestTimeout bounds one Chat request (--model-timeout).
	DefaultRequestTimeout = 120 * time.Second
	// listTimeout bounds the model list and the version check: both are
	// answered from disk, and a UI waits on them.
	listTimeout = 10 * time.Second
	// embedTimeout bounds one embedding request, model load included.
	embedTimeout = 60 * time.Second
	// pullIdleTimeout ends a download that sent no progress line for this
	// long; Ollama reports progress several times a second while it works.
	pullIdleTimeout = 3 * time.Minute
	// keepAlive keeps the model loaded between an analyst's questions, so
	// that only the first question pays for loading it.
	keepAlive = 10 * time.Minute
	// dialTimeout bounds opening a connection (a remote host that drops
	// packets would otherwise wait for the whole request timeout).
	dialTimeout = 10 * time.Second
)

// Config configures a Client. The zero value talks to $OLLAMA_HOST, else
// to Ollama's default address, with the default timeouts.
type Config struct {
	// Host is Ollama's address: "" uses $OLLAMA_HOST, and when that is
	// unset too, http://127.0.0.1:11434. Accepted forms: "host",
	// "host:port", ":port", "http://host:port", "https://host:port", with
	// an optional path prefix (a reverse proxy). Without a scheme the
	// default port is 11434; with one and no port it is the scheme's port
	// (http://host means port 80, as in Ollama's own client). An empty or
	// unspecified host (":11435", "0.0.0.0:11434") means this machine's
	// loopback: OLLAMA_HOST=0.0.0.0 is how users make the server listen on
	// every interface, and it is not an address to connect to.
	Host string
	// RequestTimeout bounds each Chat request, model load included
	// (default 120 s). Listing uses 10 s and embeddings 60 s.
	RequestTimeout time.Duration
	// HTTPClient, when set, carries the requests; its Timeout (if any)
	// applies on top of the deadlines above. By default the client has a
	// 10 s connection timeout and relies on the per-call deadlines: a
	// streamed chat has no fixed total time a client-wide timeout could
	// express.
	HTTPClient *http.Client
}

// Client implements engine.Model over Ollama's HTTP API with
// github.com/ollama/ollama/api. It is safe for concurrent use.
type Client struct {
	api        *api.Client
	host       string // canonical base URL, e.g. http://127.0.0.1:11434
	custom     bool   // the host is not Ollama's default
	reqTimeout time.Duration
	listTO     time.Duration
	embedTO    time.Duration
	pullIdle   time.Duration

	// mu guards shown, the models described (Describe), and digests, the
	// digest each listed model had.
	mu      sync.Mutex
	shown   map[string]described
	digests map[string]string
}

var _ engine.Model = (*Client)(nil)

// New returns a client for cfg. It does not contact Ollama (use Version for
// that); it fails only on an address it cannot parse, with a usage error.
func New(cfg Config) (*Client, error) {
	raw, from := cfg.Host, words.Part(words.Ollama)
	if strings.TrimSpace(raw) == "" {
		raw, from = envHost(), words.Value("OLLAMA_HOST")
	}
	base, err := ParseHost(raw)
	if err != nil {
		return nil, engine.Errorf(engine.CodeUsage, "invalid Ollama address %q: %v", raw, err).SayHint(
			words.New("ollama.fix_address", from)).WithErr(err)
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = defaultHTTPClient()
	}
	timeout := cfg.RequestTimeout
	if timeout <= 0 {
		timeout = DefaultRequestTimeout
	}
	host := base.String()
	return &Client{
		api:        api.NewClient(base, hc),
		host:       host,
		custom:     host != DefaultHost,
		reqTimeout: timeout,
		listTO:     listTimeout,
		embedTO:    embedTimeout,
		pullIdle:   pullIdleTimeout,
		shown:      map[string]described{},
		digests:    map[string]string{},
	}, nil
}

// Host returns the base URL the client talks to, e.g.
// "http://127.0.0.1:11434".
func (c *Client) Host() string { return c.host }

// RequestTimeout returns the bound of one Chat request.
func (c *Client) RequestTimeout() time.Duration { return c.reqTimeout }

// envHost reads $OLLAMA_HOST the way Ollama does (spaces and quotes
// trimmed).
func envHost() string {
	return strings.Trim(strings.TrimSpace(os.Getenv("OLLAMA_HOST")), "\"'")
}

// defaultHTTPClient is http.DefaultTransport with a bounded dial. It has no
// client-wide Timeout on purpose: every call carries its own deadline.
func defaultHTTPClient() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.DialContext = (&net.Dialer{Timeout: dialTimeout, KeepAlive: 30 * time.Second}).DialContext
	return &http.Client{Transport: t}
}

// ParseHost turns an Ollama address into a base URL. It follows Ollama's
// own reading of OLLAMA_HOST (see Config.Host) but rejects what Ollama
// would silently replace: an unknown scheme, a bad port, a malformed host.
// "" gives DefaultHost.
func ParseHost(s string) (*url.URL, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		s = DefaultHost
	}
	scheme, hostport, ok := strings.Cut(s, "://")
	defaultPort := "11434"
	if !ok {
		scheme, hostport = "http", s
	} else {
		scheme = strings.ToLower(scheme)
		switch scheme {
		case "http":
			defaultPort = "80"
		case "https":
			defaultPort = "443"
		default:
			return nil, fmt.Errorf("unsupported scheme %q (use http or https)", scheme)
		}
		if hostport == "" {
			return nil, fmt.Errorf("no host after %s://", scheme)
		}
	}
	if strings.ContainsAny(hostport, " \t\r\n?#@\\") {
		return nil, fmt.Errorf("%q is not a host and port", hostport)
	}
	hostport, path, _ := strings.Cut(hostport, "/")
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		// No port: a bare host, IPv4, IPv6 literal or [IPv6].
		host, port = strings.Trim(hostport, "[]"), defaultPort
		if strings.Contains(host, ":") && net.ParseIP(host) == nil {
			return nil, fmt.Errorf("%q is not a host and port", hostport)
		}
	}
	n, err := strconv.Atoi(port)
	if err != nil || n < 1 || n > 65535 {
		return nil, fmt.Errorf("bad port %q (want 1-65535)", port)
	}
	switch {
	case host == "" || host == "0.0.0.0":
		host = "127.0.0.1"
	case host == "::":
		host = "::1"
	case net.ParseIP(host) == nil && !validHostname(host):
		return nil, fmt.Errorf("%q is not a valid host name", host)
	}
	u := &url.URL{Scheme: scheme, Host: net.JoinHostPort(host, strconv.Itoa(n))}
	if path = strings.Trim(path, "/"); path != "" {
		u.Path = "/" + path
	}
	return u, nil
}

// validHostname accepts DNS names: letters, digits, '-', '_' and '.'.
func validHostname(h string) bool {
	if len(h) > 253 || strings.HasPrefix(h, ".") || strings.Contains(h, "..") {
		return false
	}
	for _, r := range h {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
		default:
			return false
		}
	}
	return true
}
