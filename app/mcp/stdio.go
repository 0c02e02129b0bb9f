package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxLineBytes is the longest line, one JSON-RPC message, that `querent
// mcp` reads (4 MiB). A longer line is read to its end and dropped, never
// kept whole, and the client gets an error reply saying so: whatever a
// client sends, the server's memory stays bounded. The engine caps SQL at
// 100 KB, so a real request fits many times over.
const MaxLineBytes = 4 << 20

// Stdio returns the transport of `querent mcp`: newline-delimited JSON-RPC
// on r and w. Unlike a bare sdk.IOTransport, it keeps the session alive
// whatever the client sends, and the end of the input does not drop the
// answers to requests still running:
//
//   - only well-formed single JSON-RPC 2.0 messages reach the SDK, whose
//     reader ends the session at the first one it cannot decode. A line
//     that is not JSON gets a -32700 parse error (id null); a batch (MCP
//     2025-06-18 removed JSON-RPC batching) gets a -32600 reply for each of
//     its requests, with that request's id, or one with a null id when
//     none has an id; other JSON that is not a JSON-RPC message gets -32600
//     with its id when one can be read; a line over [MaxLineBytes] gets
//     -32600 with its id when the start of the line has one.
//   - at the end of the input, the session stays open until every request
//     read has been answered, so that `printf '…requests…' | querent mcp`
//     gets its answers too; [Server.Run] sees the end and gives the calls
//     in flight Options.Drain to answer before it cancels them (they then
//     answer cancelled).
//
// The error replies are written under the same lock as the SDK's own
// messages, so lines never mix.
func Stdio(r io.Reader, w io.Writer) sdk.Transport {
	t := &tracker{open: map[jsonrpc.ID]bool{}}
	t.cond = sync.NewCond(&t.mu)
	out := &countWriter{w: w, t: t}
	ended := make(chan struct{})
	return &stdioTransport{
		IOTransport: &sdk.IOTransport{
			Reader: &drainReader{in: bufio.NewReaderSize(r, 64<<10), t: t, out: out, ended: ended},
			Writer: out,
			// The reader never passes on a line over MaxLineBytes, so the
			// SDK's own cap, which would end the session, cannot trip; it
			// stays as a backstop.
			MaxLineLength: 2 * MaxLineBytes,
		},
		ended: ended,
	}
}

// stdioTransport is Stdio's transport: the SDK's, and the end of its input.
type stdioTransport struct {
	*sdk.IOTransport
	ended chan struct{} // closed when the input has ended
}

func (t *stdioTransport) inputEnded() <-chan struct{} { return t.ended }

// tracker knows which of the client's requests still wait for an answer.
type tracker struct {
	mu   sync.Mutex
	cond *sync.Cond
	open map[jsonrpc.ID]bool
}

// read notes a message the SDK is about to read: a request waits for its
// response; a request the client cancels gets none (or one nobody waits
// for), so its cancellation counts as its answer.
func (t *tracker) read(msg jsonrpc.Message) {
	req, ok := msg.(*jsonrpc.Request)
	if !ok {
		return
	}
	switch {
	case req.ID.IsValid():
		t.mu.Lock()
		t.open[req.ID] = true
		t.mu.Unlock()
	case req.Method == "notifications/cancelled":
		var p struct {
			RequestID any `json:"requestId"`
		}
		if json.Unmarshal(req.Params, &p) == nil {
			if id, err := jsonrpc.MakeID(p.RequestID); err == nil {
				t.answered(id)
			}
		}
	}
}

// answered notes that a request has its response.
func (t *tracker) answered(id jsonrpc.ID) {
	t.mu.Lock()
	delete(t.open, id)
	t.mu.Unlock()
	t.cond.Broadcast()
}

// waitAnswered blocks until every request read has its response.
func (t *tracker) waitAnswered() {
	t.mu.Lock()
	for len(t.open) > 0 {
		t.cond.Wait()
	}
	t.mu.Unlock()
}

// drainReader gives the SDK the client's messages, one well-formed
// JSON-RPC message per line, and answers the lines it cannot pass on. At
// the end of the input it waits until every request read has been
// answered before it says so.
type drainReader struct {
	in  *bufio.Reader
	t   *tracker
	out *countWriter
	// pending is the rest of the accepted line (and its newline) that the
	// SDK has not read yet; line is the buffer it lives in.
	pending, line []byte
	eof           bool
	// ended is closed at the end of the input, for Server.Run.
	ended chan struct{}
}

func (d *drainReader) Read(p []byte) (int, error) {
	for len(d.pending) == 0 {
		if d.eof {
			d.t.waitAnswered()
			return 0, io.EOF
		}
		line, over, err := d.readLine()
		if err == io.EOF {
			d.eof = true // the end comes once this last line is answered
			if d.ended != nil {
				close(d.ended)
			}
		} else if err != nil {
			return 0, err
		}
		d.accept(line, over)
	}
	n := copy(p, d.pending)
	d.pending = d.pending[n:]
	return n, nil
}

func (d *drainReader) Close() error { return nil }

// readLine reads the next line without its newline. A line longer than
// MaxLineBytes is read to its end but not kept: over is true and line holds
// its first MaxLineBytes bytes, enough to find the message's id.
func (d *drainReader) readLine() (line []byte, over bool, err error) {
	if cap(d.line) > 1<<20 {
		d.line = nil // do not hold on to the buffer of a long line
	}
	d.line = d.line[:0]
	for {
		chunk, err := d.in.ReadSlice('\n')
		if err == nil {
			chunk = chunk[:len(chunk)-1]
		}
		if !over {
			if room := MaxLineBytes - len(d.line); len(chunk) > room {
				chunk, over = chunk[:room], true
			}
			if need := len(d.line) + len(chunk); need > cap(d.line) {
				// Double (append grows large slices by a quarter, which
				// costs five times a long line in copies), up to the limit.
				d.line = slices.Grow(d.line, min(max(2*cap(d.line), need), MaxLineBytes)-len(d.line))
			}
			d.line = append(d.line, chunk...)
		}
		if err != bufio.ErrBufferFull {
			return d.line, over, err
		}
	}
}

// accept passes a well-formed message on to the SDK, or answers the line
// with an error.
func (d *drainReader) accept(line []byte, over bool) {
	if over {
		d.reply(idOf(line), jsonrpc.CodeInvalidRequest, fmt.Sprintf(
			"invalid request: the line is over %d MiB, the most querent mcp reads; send smaller requests (one JSON-RPC message per line)", MaxLineBytes>>20))
		return
	}
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return // a blank line carries no message
	}
	if !json.Valid(line) {
		var v json.RawMessage
		err := json.Unmarshal(line, &v)
		d.reply(nil, jsonrpc.CodeParseError, "parse error: "+err.Error())
		return
	}
	if line[0] == '[' {
		d.refuseBatch(line)
		return
	}
	msg, problem := decode(line)
	if problem != "" {
		d.reply(idOf(line), jsonrpc.CodeInvalidRequest, "invalid request: "+problem)
		return
	}
	d.t.read(msg)
	d.pending = append(line, '\n')
}

// refuseBatch answers a JSON-RPC batch: MCP 2025-06-18 removed batching,
// and the SDK ends the session on one. Each request in it that has an id
// gets its own error reply, so that none of the client's calls waits for
// ever; a batch without one gets a single reply with a null id.
func (d *drainReader) refuseBatch(line []byte) {
	const msg = "invalid request: JSON-RPC batches are not supported (MCP 2025-06-18 removed them); send one message per line"
	var elems []json.RawMessage
	_ = json.Unmarshal(line, &elems)
	replied := false
	for _, e := range elems {
		if id := idOf(e); id != nil {
			d.reply(id, jsonrpc.CodeInvalidRequest, msg)
			replied = true
		}
	}
	if !replied {
		d.reply(nil, jsonrpc.CodeInvalidRequest, msg)
	}
}

// reply writes a JSON-RPC error response (id nil: null).
func (d *drainReader) reply(id json.RawMessage, code int, message string) {
	type wireError struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   wireError       `json:"error"`
	}{"2.0", id, wireError{code, message}})
	// A reply that cannot be written has nobody to read it: the end of the
	// input follows.
	_ = d.out.writeLine(append(b, '\n'))
}

// decode checks that line (valid JSON) is one JSON-RPC 2.0 message the
// SDK can read, and says what is wrong when it is not.
func decode(line []byte) (jsonrpc.Message, string) {
	if line[0] != '{' {
		return nil, `not a JSON-RPC 2.0 message: send an object with "jsonrpc":"2.0" and a "method"`
	}
	// The keys as written: the SDK matches them exactly, not ignoring case.
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(line, &fields); err != nil {
		return nil, err.Error()
	}
	if string(fields["jsonrpc"]) != `"2.0"` {
		return nil, `"jsonrpc" must be "2.0"`
	}
	id, hasID := fields["id"]
	var idValue any
	if hasID && json.Unmarshal(id, &idValue) != nil {
		idValue = true // a number out of range: not an id the SDK can read
	}
	switch idValue.(type) {
	case nil, string, float64:
	default:
		return nil, `"id" must be a string, a number or null`
	}
	method, hasMethod := fields["method"]
	var name string
	if hasMethod && json.Unmarshal(method, &name) != nil || string(method) == "null" {
		return nil, `"method" must be a string`
	}
	_, hasResult := fields["result"]
	_, hasError := fields["error"]
	if !hasMethod && (!hasID || !hasResult && !hasError) {
		// Neither a request nor a response to one of the server's requests.
		return nil, `a request needs a "method"`
	}
	// The SDK's own decoder has the last word (it also bounds the nesting).
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		return nil, err.Error()
	}
	return msg, ""
}

// idOf returns the id of a JSON-RPC message as written (a string or a
// number), or nil when none can be read. It reads only as far as the id,
// so it works on the start of a line too long to keep.
func idOf(msg []byte) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(msg))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil
		}
		if key != "id" {
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return nil
			}
			continue
		}
		switch v := must(dec.Token()).(type) {
		case string:
			b, _ := json.Marshal(v)
			return b
		case json.Number:
			return json.RawMessage(v)
		}
		return nil
	}
	return nil
}

// must drops the error of a token: a token that cannot be read is nil.
func must(tok json.Token, err error) json.Token {
	if err != nil {
		return nil
	}
	return tok
}

// countWriter writes the server's messages, notes the responses, and
// writes the reader's error replies under the same lock, so that lines
// written by different goroutines never mix.
type countWriter struct {
	mu  sync.Mutex
	w   io.Writer
	t   *tracker
	buf []byte
}

// Write is the SDK's: it writes each message, newline included, in one
// call.
func (c *countWriter) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n, err := c.w.Write(p)
	// A response that cannot be written counts as given: nobody waits for it.
	data := p
	if len(c.buf) > 0 {
		c.buf = append(c.buf, p...)
		data = c.buf
	}
	for {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			break
		}
		if msg, err := jsonrpc.DecodeMessage(data[:i]); err == nil {
			if resp, ok := msg.(*jsonrpc.Response); ok && resp.ID.IsValid() {
				c.t.answered(resp.ID)
			}
		}
		data = data[i+1:]
	}
	// Keep a partial line (the SDK writes whole ones) for the next write.
	c.buf = append(c.buf[:0:0], data...)
	return n, err
}

// writeLine writes one line that is not the SDK's (an error reply).
func (c *countWriter) writeLine(line []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, err := c.w.Write(line)
	return err
}

func (c *countWriter) Close() error { return nil }
