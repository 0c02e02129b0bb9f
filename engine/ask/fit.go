package ask

// Fitting the prompt to the model's window (issue 24 §1–§2): the model's
// window is read once (engine.DescribeModel, Ollama's /api/show); num_ctx
// never goes past it; a prompt that does not fit is pruned harder until it
// does, or refused with an error that names the window; and every round's
// prompt_eval_count is compared with what was sent, so that a prompt the
// server cut is a warning in the answer, never silent.

import (
	"context"

	"querent/engine"
	"querent/engine/glossary"
	"querent/engine/schemactx"
	"querent/engine/words"
)

// fitMargin is how much more than the four-bytes-a-token estimate a prompt
// is taken to cost when it must fit a window: real tokenizers put fewer
// bytes in a token on DDL, sample values and non-English text (3 to 3.5 on
// Chinook's DDL with Qwen's and Llama's tokenizers), so fitting counts 5
// tokens where the estimate says 4.
const fitMargin = 1.25

// minAnswerTokens is the least room kept for the model's answer (the SQL
// and the two empty fields) in a small window.
const minAnswerTokens = 320

// modelInfo describes the Asker's model once (nil when the model port
// cannot say, or the server could not answer: the defaults stand).
func (a *Asker) modelInfo(ctx context.Context) *engine.ModelInfo {
	a.mu.Lock()
	if a.infoRead {
		info := a.info
		a.mu.Unlock()
		return info
	}
	a.mu.Unlock()
	var info *engine.ModelInfo
	if a.Model != nil && a.ModelName != "" {
		if i, err := engine.DescribeModel(ctx, a.Model, a.ModelName); err == nil {
			info = i
		}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if ctx.Err() == nil {
		a.info, a.infoRead = info, true
	}
	return info
}

// window is the model's context window in tokens, 0 when unknown.
func (a *Asker) window() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.info == nil {
		return 0
	}
	return a.info.ContextLength
}

// answerReserve is the room kept in a window for the answer: NumPredict,
// but at most a quarter of a small window (an SQL answer is a few hundred
// tokens), and never under minAnswerTokens.
func answerReserve(window, numPredict int) int {
	if window <= 0 {
		return numPredict
	}
	return min(numPredict, max(minAnswerTokens, window/4))
}

// fitTokens is what messages are taken to cost when they must fit: the
// estimate with fitMargin, and a few tokens a message for its template.
func fitTokens(msgs []engine.Message) int {
	n := 0
	for _, m := range msgs {
		n += schemactx.EstimateTokens(m.Content) + 8
	}
	return int(float64(n)*fitMargin + 0.5)
}

// built is a question's prompt as prompt builds it.
type built struct {
	msgs     []engine.Message
	shown    []string
	examples []engine.ExampleUsed
	// schemaTokens is the estimate of the tables' part; schemaText the
	// tables as the prompt shows them, and hints the stored values the
	// question names (for a specialist's prompt, family.go).
	schemaTokens int
	schemaText   string
	hints        []string
}

// fitPrompt builds the question's prompt and, when the model's window is
// known and the prompt with the room for the answer does not fit it,
// prunes harder: first the tables (fewer, without sample rows, the top one
// bare at worst) to what is left of the window, then the rest (no verified
// examples, no earlier turns, fewer value hints) as well. When even that
// does not fit, the error names the window and what the prompt needs.
func (a *Asker) fitPrompt(ctx context.Context, question string, session *engine.Session, used []glossary.Entry, opts Options) (built, error) {
	b, err := a.prompt(ctx, question, session, used, opts)
	window := a.window()
	if err != nil || window <= 0 || a.ContextWindow > 0 {
		return b, err
	}
	reserve := opts.NumPredict + 256 + a.thinkBudget(opts)
	for _, lean := range []bool{false, true} {
		need := fitTokens(b.msgs) + reserve
		if need <= window {
			return b, nil
		}
		opts.lean = lean
		if lean {
			b, err = a.prompt(ctx, question, session, used, opts)
			if err != nil {
				return b, err
			}
			if need = fitTokens(b.msgs) + reserve; need <= window {
				return b, nil
			}
		}
		// What is left of the window for the tables, in the estimate's tokens.
		rest := int(float64(window-reserve-(fitTokens(b.msgs)-int(float64(b.schemaTokens)*fitMargin)))/fitMargin) - 16
		if rest < 1 {
			rest = 1
		}
		opts.SchemaBudget = min(opts.SchemaBudget, rest)
		if b, err = a.prompt(ctx, question, session, used, opts); err != nil {
			return b, err
		}
	}
	if need := fitTokens(b.msgs) + reserve; need > window {
		return b, promptTooLong(a.ModelName, window, need, reserve)
	}
	return b, nil
}

// promptTooLong is the error of a question whose prompt does not fit the
// model's window even pruned to its own tables.
func promptTooLong(model string, window, need, reserve int) error {
	fits := 4096
	for fits < need {
		fits *= 2
	}
	e := engine.Errorf(engine.CodeTooBig, "the question's prompt needs about %s tokens with the %s kept for the answer, more than the %s tokens the model %s reads at once (its context window), even with only the question's own tables",
		engine.GroupThousands(int64(need)), engine.GroupThousands(int64(reserve)), engine.GroupThousands(int64(window)), model)
	return e.SayHint(words.New("hint.window_too_small", words.Count(fits), words.Model, words.ListModels))
}

// trimmed is the conversation of a repair round made to fit the window:
// the question's own prompt and the last exchange (the failed answer and
// what went wrong), without the rounds between, when the whole would not
// fit; msgs as they are otherwise.
func (a *Asker) trimmed(msgs, first []engine.Message, opts Options) []engine.Message {
	window := a.window()
	if window <= 0 || a.ContextWindow > 0 || len(msgs) <= len(first)+2 || fitTokens(msgs)+opts.NumPredict+256+a.thinkBudget(opts) <= window {
		return msgs
	}
	out := append([]engine.Message(nil), first...)
	return append(out, msgs[len(msgs)-2:]...)
}

// capWindow keeps num_ctx within the model's window; floor is the least
// num_ctx chosen (4,096), which a smaller window lowers.
func capWindow(numCtx, window int) int {
	if window > 0 && numCtx > window {
		return window
	}
	return numCtx
}

// promptCut reports whether the server read less of a prompt than was
// sent: Ollama cuts a prompt longer than num_ctx to fit it (dropping the
// oldest messages, or the tokens after the first few), and so does a
// server started with a smaller context than it says; prompt_eval_count
// then counts what it read. sent is the estimate (four bytes a token).
// Two signs prove a cut. A count that fills num_ctx (within 64 tokens):
// every request leaves the answer's room (at least 576 tokens) above the
// estimate, so a prompt that reaches the top of the window was longer
// than it, whatever the estimate said (a tokenizer that reads far fewer
// bytes a token than four). And a count under seven tenths of the
// estimate: real tokenizers read 3 to 4 bytes a token on rules, DDL and
// sample values, and the chat template adds tokens, so a whole prompt
// counts at or above the estimate; 5.7 bytes a token and more is a cut.
func promptCut(sent, read, numCtx int) bool {
	if read <= 0 || sent <= 0 {
		return false
	}
	if numCtx > 0 && read >= numCtx-64 {
		return true
	}
	return sent >= 256 && 10*read < 7*sent
}

// sentTokens is the four-bytes-a-token estimate of a request's prompt.
func sentTokens(msgs []engine.Message) int {
	n := 0
	for _, m := range msgs {
		n += schemactx.EstimateTokens(m.Content) + 4
	}
	return n
}

// warnCuts adds a warning to the answer for the rounds whose prompt the
// server cut (ModelRound.PromptCut): which, and what would fit.
func (a *Asker) warnCuts(ans *engine.Answer, stats *engine.ModelStats) {
	for _, r := range stats.Rounds {
		if r.PromptCut {
			ans.Warn(words.New("model.prompt_cut", words.Value(a.ModelName), words.Count(r.PromptTokens), words.Count(r.PromptTokensSent), words.Value(r.Stage)))
			return
		}
	}
}
