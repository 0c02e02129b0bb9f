package ask

// Thinking models (issue 24 §3): qwen3, deepseek-r1, gpt-oss think before
// they answer, hundreds of tokens at a laptop's 10 a second. The SQL step
// tells a model with the thinking capability not to (think: false) unless
// the analyst turned thinking on (Options.Think: --think, the page's
// setting per model, the sub-agent input's think); with thinking on, the
// thinking streams (Options.OnThinking, Progress stage "thinking"), is
// counted (thinking_tokens in model_stats) and bounded by its own budget
// and time limit. The votes and the explanation never think.

import (
	"context"
	"fmt"
	"sync"
	"time"

	"querent/engine"
	"querent/engine/words"
)

// Thinking's bounds when Options leave them unset.
const (
	// DefaultThinkBudget is the most tokens a round may think (added to
	// the answer's num_predict: servers count thinking as generated).
	DefaultThinkBudget = 2048
	// DefaultThinkTimeout is the most time a round may think.
	DefaultThinkTimeout = 90 * time.Second
)

// thinkSwitch is the think value of a request: nil for a model that does
// not think (or that the port cannot describe), else whether it may think
// (on for the SQL rounds when the analyst turned it on).
func (a *Asker) thinkSwitch(on bool) *bool {
	a.mu.Lock()
	thinks := a.info.Has(engine.CapThinking)
	a.mu.Unlock()
	if !thinks {
		return nil
	}
	return &on
}

// thinking reports whether this question's SQL rounds think.
func (a *Asker) thinking(opts Options) bool {
	t := a.thinkSwitch(opts.Think)
	return t != nil && *t
}

// errThoughtTooLong is the cause a round's request is cancelled with when
// its thinking went past the budget or the time limit.
type errThoughtTooLong struct {
	tokens int
	after  time.Duration
	budget int
	limit  time.Duration
}

func (e *errThoughtTooLong) Error() string {
	return fmt.Sprintf("thought %d tokens in %s", e.tokens, e.after.Round(time.Second))
}

// thinkWatch follows one round's thinking: it streams it, counts it, and
// ends the request when it goes past the budget or the time limit.
type thinkWatch struct {
	mu     sync.Mutex
	budget int
	limit  time.Duration
	start  time.Time
	bytes  int
	text   []byte
	cancel context.CancelCauseFunc
	l      *loop
	n      int
}

// thinkBudget is the most tokens a round of this question may think: 0
// when it does not think; ThinkBudget (default 2,048) else, at most a
// quarter of a known window.
func (a *Asker) thinkBudget(opts Options) int {
	if !a.thinking(opts) {
		return 0
	}
	budget := opts.ThinkBudget
	if budget <= 0 {
		budget = DefaultThinkBudget
	}
	if w := a.window(); w > 0 {
		budget = min(budget, w/4)
	}
	return budget
}

// newThinkWatch watches a round's thinking; cancel ends the round's request.
func newThinkWatch(l *loop, n int, cancel context.CancelCauseFunc) *thinkWatch {
	limit := l.opts.ThinkTimeout
	if limit <= 0 {
		limit = DefaultThinkTimeout
	}
	return &thinkWatch{budget: l.a.thinkBudget(l.opts), limit: limit, start: time.Now(), cancel: cancel, l: l, n: n}
}

// piece takes the next piece of thinking.
func (w *thinkWatch) piece(s string) {
	w.mu.Lock()
	w.bytes += len(s)
	w.text = append(w.text, s...)
	tokens := engine.EstimateThinkingTokens(string(w.text))
	text := string(w.text)
	after := time.Since(w.start)
	w.mu.Unlock()
	if w.l.opts.OnThinking != nil {
		w.l.opts.OnThinking(s)
	}
	w.l.progress(Progress{Stage: "thinking", Attempt: w.n, Tokens: tokens, Text: text})
	if tokens > w.budget || after > w.limit {
		w.cancel(&errThoughtTooLong{tokens: tokens, after: after, budget: w.budget, limit: w.limit})
	}
}

// thoughtTooLong is the error of a round ended for thinking too long.
func thoughtTooLong(model string, e *errThoughtTooLong, err error) error {
	what := fmt.Sprintf("more than %s tokens", engine.GroupThousands(int64(e.budget)))
	if e.tokens <= e.budget {
		what = fmt.Sprintf("longer than %s", e.limit)
	}
	return engine.Errorf(engine.CodeModelError, "the model %s thought %s without writing its answer (%s tokens in %s), so the question was stopped",
		model, what, engine.GroupThousands(int64(e.tokens)), e.after.Round(time.Second)).SayHint(
		words.New("hint.thought_too_long", words.Think)).WithErr(err)
}
