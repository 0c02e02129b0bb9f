package mcp

import (
	"bytes"
	"encoding/json"
	"io"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Stdio returns the transport of `querent mcp`: newline-delimited JSON-RPC
// on r and w. Unlike a bare sdk.IOTransport, the end of the input does not
// drop the answers to requests still running: the server answers every
// request it has read before it stops, so that
// `printf '…requests…' | querent mcp` gets its answers too.
func Stdio(r io.Reader, w io.Writer) sdk.Transport {
	t := &tracker{}
	t.cond = sync.NewCond(&t.mu)
	return &sdk.IOTransport{
		Reader: &drainReader{r: r, t: t},
		Writer: &countWriter{w: w, t: t},
	}
}

// tracker counts the requests read and the responses written.
type tracker struct {
	mu                  sync.Mutex
	cond                *sync.Cond
	requests, responses int
}

func (t *tracker) add(requests, responses int) {
	if requests == 0 && responses == 0 {
		return
	}
	t.mu.Lock()
	t.requests += requests
	t.responses += responses
	t.mu.Unlock()
	t.cond.Broadcast()
}

// waitAnswered blocks until every request read has its response.
func (t *tracker) waitAnswered() {
	t.mu.Lock()
	for t.responses < t.requests {
		t.cond.Wait()
	}
	t.mu.Unlock()
}

// counts are the JSON-RPC messages of some lines, by kind.
type counts struct{ requests, responses, cancels int }

// lines splits complete lines off buf (keeping a partial last line) and
// counts the JSON-RPC messages among them.
func lines(buf *[]byte, data []byte) (c counts) {
	*buf = append(*buf, data...)
	for {
		i := bytes.IndexByte(*buf, '\n')
		if i < 0 {
			return c
		}
		classify(bytes.TrimSpace((*buf)[:i]), &c)
		*buf = (*buf)[i+1:]
	}
}

// classify counts a message's requests (a method and an id), responses
// (an id and no method) and cancellations; a batch counts each of its
// messages.
func classify(line []byte, c *counts) {
	type message struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	var batch []message
	if len(line) > 0 && line[0] == '[' {
		if json.Unmarshal(line, &batch) != nil {
			return
		}
	} else {
		var m message
		if json.Unmarshal(line, &m) != nil {
			return
		}
		batch = []message{m}
	}
	for _, m := range batch {
		switch {
		case m.Method == "notifications/cancelled":
			c.cancels++
		case m.Method != "" && len(m.ID) > 0:
			c.requests++
		case m.Method == "" && len(m.ID) > 0:
			c.responses++
		}
	}
}

// drainReader reads the client's messages; at the end of the input it
// waits until every request read has been answered before it says so.
type drainReader struct {
	r   io.Reader
	t   *tracker
	buf []byte
}

func (d *drainReader) Read(p []byte) (int, error) {
	n, err := d.r.Read(p)
	if n > 0 {
		// The client's requests wait for answers; a request it cancels
		// gets none, so its cancellation stands for one.
		c := lines(&d.buf, p[:n])
		d.t.add(c.requests, c.cancels)
		if err == io.EOF {
			return n, nil // the end comes with the next read, once these are answered
		}
	}
	if err == io.EOF {
		d.t.waitAnswered()
	}
	return n, err
}

func (d *drainReader) Close() error { return nil }

// countWriter writes the server's messages and counts its responses.
type countWriter struct {
	w   io.Writer
	t   *tracker
	buf []byte
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	// A response that cannot be written counts as given: nobody waits for it.
	c.t.add(0, lines(&c.buf, p).responses)
	return n, err
}

func (c *countWriter) Close() error { return nil }
