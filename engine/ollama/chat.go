package ollama

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/ollama/ollama/api"

	"querent/engine"
	"querent/engine/words"
)

// Chat sends one chat request and returns the complete answer. The answer
// streams: req.OnToken, when set, receives each piece of content as it
// arrives, in order; together they make Content. Options sent: temperature
// (req.Temperature, 0 included), num_ctx and num_predict when positive,
// format when req.Format is set, think when req.Think is set, and a
// keep_alive of 10 minutes. A thinking model's thinking (message.thinking,
// or a <think>…</think> block at the start of the content) goes to
// req.OnThinking and Thinking, never into Content; Ollama does not count
// it apart from eval_count, so ThinkingTokens is estimated from its text.
//
// The request is bounded by the client's RequestTimeout and by ctx,
// whichever ends first. Duration is the wall-clock time of the whole
// request, model load included; PromptTokens and OutputTokens are Ollama's
// prompt_eval_count and eval_count, Load its load_duration, FirstToken the
// time until the first piece of content arrived.
//
// An answer cut off by num_predict (done_reason "length") is a model_error;
// the partial response is returned with it, for traces. Any other error
// returns a nil response.
func (c *Client) Chat(ctx context.Context, req engine.ChatRequest) (*engine.ChatResponse, error) {
	if strings.TrimSpace(req.Model) == "" {
		return nil, engine.Errorf(engine.CodeUsage, "no model was chosen for the question").SayHint(
			words.New("hint.choose_model", words.Model.With("NAME")))
	}
	if len(req.Format) > 0 && !json.Valid(req.Format) {
		return nil, engine.Errorf(engine.CodeInternal, "the answer format sent to the model is not valid JSON").WithHint(
			"this is a bug in Querent; please report it with the command that caused it")
	}

	stream := true
	areq := &api.ChatRequest{
		Model:     req.Model,
		Messages:  make([]api.Message, len(req.Messages)),
		Stream:    &stream,
		Format:    req.Format,
		KeepAlive: &api.Duration{Duration: keepAlive},
		Options:   map[string]any{"temperature": req.Temperature},
	}
	for i, m := range req.Messages {
		areq.Messages[i] = api.Message{Role: m.Role, Content: m.Content}
	}
	if req.NumCtx > 0 {
		areq.Options["num_ctx"] = req.NumCtx
	}
	if req.NumPredict > 0 {
		areq.Options["num_predict"] = req.NumPredict
	}
	if req.Think != nil {
		areq.Think = &api.ThinkValue{Value: *req.Think}
	}

	cl := call{kind: "chat", model: req.Model, limit: c.reqTimeout}
	callCtx, cancel := withLimit(ctx, c.reqTimeout)
	defer cancel()

	start := time.Now()
	var (
		content, thinking strings.Builder
		final             *api.ChatResponse
		first             time.Duration
		filter            engine.ThinkFilter
	)
	emit := func(answer, thought string) {
		if thought != "" {
			thinking.WriteString(thought)
			if req.OnThinking != nil {
				req.OnThinking(thought)
			}
		}
		if answer != "" {
			if first == 0 {
				first = time.Since(start)
			}
			content.WriteString(answer)
			if req.OnToken != nil {
				req.OnToken(answer)
			}
		}
	}
	err := c.api.Chat(callCtx, areq, func(r api.ChatResponse) error {
		if callCtx.Err() != nil {
			// Lines already read still come: a cancel ends them here.
			return callCtx.Err()
		}
		emit("", r.Message.Thinking)
		if r.Message.Content != "" {
			emit(filter.Write(r.Message.Content))
		}
		if r.Done {
			emit(filter.Flush())
			final = &r
		}
		return nil
	})
	// The api package ends quietly when the body breaks off (a cancelled
	// context included): only a final "done" line means a whole answer.
	if err != nil || final == nil {
		return nil, c.fail(ctx, callCtx, cl, err)
	}

	resp := &engine.ChatResponse{
		Content:      content.String(),
		PromptTokens: final.PromptEvalCount,
		OutputTokens: final.EvalCount,
		Duration:     time.Since(start),
		Load:         final.LoadDuration,
		PromptEval:   final.PromptEvalDuration,
		FirstToken:   first,
		DoneReason:   final.DoneReason,
		Thinking:     thinking.String(),
	}
	resp.ThinkingTokens = engine.EstimateThinkingTokens(resp.Thinking)
	if final.DoneReason == "length" {
		return resp, engine.Errorf(engine.CodeModelError, "the model's answer was cut off after %d tokens", final.EvalCount).WithHint(
			"the answer was too long; try again or ask a narrower question")
	}
	return resp, nil
}
