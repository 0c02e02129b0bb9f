package openai

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"querent/engine"
	"querent/engine/words"
)

// chatRequest is the body of POST /v1/chat/completions.
type chatRequest struct {
	Model          string           `json:"model"`
	Messages       []engine.Message `json:"messages"`
	Stream         bool             `json:"stream"`
	StreamOptions  *streamOptions   `json:"stream_options,omitempty"`
	Temperature    float64          `json:"temperature"`
	MaxTokens      int              `json:"max_tokens,omitempty"`
	ResponseFormat *responseFormat  `json:"response_format,omitempty"`
}

type streamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

type responseFormat struct {
	Type       string      `json:"type"` // json_schema
	JSONSchema *jsonSchema `json:"json_schema,omitempty"`
}

type jsonSchema struct {
	Name   string          `json:"name"`
	Schema json.RawMessage `json:"schema"`
}

// chunk is one event of a streamed answer (a chat.completion.chunk), or,
// not streamed, the whole answer (its choices carry message instead of
// delta). Error is how some servers (vLLM, llama-server) report a failure
// in the middle of a stream.
type chunk struct {
	Choices []struct {
		Delta        message `json:"delta"`
		Message      message `json:"message"`
		FinishReason string  `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
	Error *apiError `json:"error"`
}

// message is a message or a delta of one. ReasoningContent is the thinking
// that llama-server, vLLM and LM Studio stream apart from the answer: it is
// not part of the answer.
type message struct {
	Content          string `json:"content"`
	ReasoningContent string `json:"reasoning_content"`
}

// Chat sends one chat request and returns the complete answer. The answer
// streams (stream_options include_usage asks for the counts in the last
// event): req.OnToken, when set, receives each piece of content as it
// arrives, in order; together they make Content. Sent: temperature
// (req.Temperature, 0 included), max_tokens (req.NumPredict) when
// positive, and response_format json_schema when req.Format is set. The
// server sizes its context window itself: req.NumCtx is not sent (the API
// has no such field).
//
// The request is bounded by the client's RequestTimeout and by ctx,
// whichever ends first. Duration is the whole request's wall-clock time,
// FirstToken the time until the first piece of content; PromptTokens and
// OutputTokens are usage's prompt_tokens and completion_tokens (0 when the
// server sends no usage). The API reports no load or prompt time: Load and
// PromptEval stay 0.
//
// An answer cut off by max_tokens (finish_reason "length") is a
// model_error, returned with the partial response, as from Ollama.
func (c *Client) Chat(ctx context.Context, req engine.ChatRequest) (*engine.ChatResponse, error) {
	if strings.TrimSpace(req.Model) == "" {
		return nil, engine.Errorf(engine.CodeUsage, "no model was chosen for the question").SayHint(
			words.New("hint.choose_model", words.Model.With("NAME")))
	}
	if len(req.Format) > 0 && !json.Valid(req.Format) {
		return nil, engine.Errorf(engine.CodeInternal, "the answer format sent to the model is not valid JSON").WithHint(
			"this is a bug in Querent; please report it with the command that caused it")
	}
	body := chatRequest{
		Model:         req.Model,
		Messages:      req.Messages,
		Stream:        true,
		StreamOptions: &streamOptions{IncludeUsage: true},
		Temperature:   req.Temperature,
		MaxTokens:     max(req.NumPredict, 0),
	}
	if len(req.Format) > 0 {
		body.ResponseFormat = &responseFormat{Type: "json_schema", JSONSchema: &jsonSchema{Name: "answer", Schema: req.Format}}
	}

	cl := call{kind: "chat", model: req.Model, limit: c.reqTimeout}
	callCtx, cancel := withLimit(ctx, c.reqTimeout)
	defer cancel()
	start := time.Now()
	resp, err := c.post(callCtx, "/chat/completions", body)
	if err != nil {
		return nil, c.fail(ctx, callCtx, cl, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, c.fail(ctx, callCtx, cl, readStatus(resp))
	}

	var (
		content strings.Builder
		first   time.Duration
		out     = &engine.ChatResponse{}
		done    bool
	)
	take := func(ch *chunk) error {
		if ch.Error != nil {
			return ch.Error.withStatus(0)
		}
		for _, choice := range ch.Choices {
			piece := choice.Delta.Content + choice.Message.Content
			if piece != "" {
				if first == 0 {
					first = time.Since(start)
				}
				content.WriteString(piece)
				if req.OnToken != nil {
					req.OnToken(piece)
				}
			}
			if choice.FinishReason != "" {
				out.DoneReason = choice.FinishReason
			}
		}
		if ch.Usage != nil {
			out.PromptTokens, out.OutputTokens = ch.Usage.PromptTokens, ch.Usage.CompletionTokens
		}
		return nil
	}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		// A server that does not stream answers with one JSON document.
		var ch chunk
		if err := json.NewDecoder(resp.Body).Decode(&ch); err != nil {
			return nil, c.fail(ctx, callCtx, cl, fmt.Errorf("reading the answer: %w", err))
		}
		err, done = take(&ch), true
	} else {
		done, err = readEvents(resp.Body, func(data []byte) error {
			var ch chunk
			if err := json.Unmarshal(data, &ch); err != nil {
				return fmt.Errorf("reading an event of the answer: %w", err)
			}
			return take(&ch)
		})
	}
	// Only [DONE], or a finish_reason with the stream ended cleanly, is a
	// whole answer: a body that breaks off is a lost connection.
	if err != nil || (!done && out.DoneReason == "") {
		return nil, c.fail(ctx, callCtx, cl, err)
	}
	out.Content, out.FirstToken, out.Duration = content.String(), first, time.Since(start)
	if out.DoneReason == "" {
		out.DoneReason = "stop"
	}
	if out.DoneReason == "length" {
		n := out.OutputTokens
		if n == 0 {
			n = req.NumPredict
		}
		return out, engine.Errorf(engine.CodeModelError, "the model's answer was cut off after %d tokens", n).WithHint(
			"the answer was too long; try again or ask a narrower question")
	}
	return out, nil
}

// readEvents reads a server-sent event stream, calling f with the data of
// each event, until "data: [DONE]" (done true) or the end of the body
// (done false; a nil error then means the body ended without error).
// Comments (": keep-alive") and the event, id and retry fields are skipped;
// the lines of a multi-line data field are joined with newlines.
func readEvents(r io.Reader, f func(data []byte) error) (done bool, err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var data []byte
	flush := func() error {
		if len(data) == 0 {
			return nil
		}
		d := data
		data = nil
		return f(d)
	}
	for {
		line, rerr := br.ReadBytes('\n')
		line = bytes.TrimRight(line, "\r\n")
		switch {
		case len(line) == 0 && rerr == nil:
			if err := flush(); err != nil {
				return false, err
			}
		case bytes.HasPrefix(line, []byte("data:")):
			v := bytes.TrimPrefix(bytes.TrimPrefix(line, []byte("data:")), []byte(" "))
			if string(v) == "[DONE]" {
				return true, nil
			}
			if data != nil {
				data = append(data, '\n')
			}
			data = append(data, v...)
		}
		if rerr != nil {
			if rerr == io.EOF {
				return false, flush()
			}
			return false, rerr
		}
	}
}
