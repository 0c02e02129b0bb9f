package ask

import (
	"context"
	"strings"

	"querent/engine"
	"querent/engine/sqltext"
	"querent/engine/text"
	"querent/engine/valuehints"
	"querent/engine/words"
)

// Promise is something the question names that its SQL is expected to
// use: a stored value the question mentions (value hints), or a business
// term the analyst defined (the glossary). An answer whose SQL keeps none
// of a promise's forms is doubtful. A source feeds promises with one line:
// Options.Promises, or a call beside valuePromises in promises.
type Promise struct {
	// Term is the question's words that make the promise, as typed.
	Term string
	// Source names where the promise comes from: "value" or "glossary";
	// the signal is "unused_" and the source.
	Source string
	// Expected says what the SQL was expected to use, for the reason
	// ("Genre.Name = 'Rock'").
	Expected string
	// Values are literals the SQL may compare with (case, accents and
	// punctuation aside; as a part of a LIKE pattern too); Fragments are
	// SQL text it may hold (spaces and case aside); Columns
	// ("Table.Column") it may read, which keep a promise only when it has
	// no values and no fragments. A promise with none of the three is
	// kept.
	Values    []string
	Fragments []string
	Columns   []string
}

// keptBy reports whether sql, which reads the columns read
// ("Table.Column"), keeps the promise.
func (p Promise) keptBy(sql string, read []string) bool {
	if len(p.Values) == 0 && len(p.Fragments) == 0 {
		if len(p.Columns) == 0 {
			return true
		}
		for _, c := range p.Columns {
			for _, r := range read {
				if strings.EqualFold(c, r) {
					return true
				}
			}
		}
		return false
	}
	lits := sqltext.StringLiterals(sql)
	for _, v := range p.Values {
		want := text.Fold(v)
		for _, l := range lits {
			got := text.Fold(l)
			if got == want || (want != "" && strings.ContainsAny(l, "%_*") && strings.Contains(got, want)) {
				return true
			}
		}
	}
	flat := squeeze(sql)
	for _, f := range p.Fragments {
		if f := squeeze(f); f != "" && strings.Contains(flat, f) {
			return true
		}
	}
	return false
}

// squeeze lower-cases s and removes its spaces, so that SQL fragments
// compare as written.
func squeeze(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), ""))
}

// valuePromises are the question's exact value hints as promises: a
// question that names a stored value ("rock", "AC/DC") expects its SQL to
// compare with it. A hint that tolerates a typo promises nothing (it may
// be a word of the question that only looks like a value).
func valuePromises(hints []valuehints.Hint) []Promise {
	var ps []Promise
	for _, h := range hints {
		if !h.Exact {
			continue
		}
		cols := append([]string{h.Table + "." + h.Column}, h.AlsoIn...)
		ps = append(ps, Promise{Term: h.Matched, Source: "value", Values: []string{h.Value}, Columns: cols,
			Expected: h.Table + "." + h.Column + " = " + sqltext.QuoteString(h.Value)})
	}
	return ps
}

// promises are what the question promises: its value hints, and what the
// caller adds (opts.Promises: the glossary's terms).
func (a *Asker) promises(ctx context.Context, question string, opts Options) []Promise {
	var ps []Promise
	if vi := a.valueIndex(ctx, false); vi != nil {
		ps = valuePromises(vi.Hints(question, 8))
	}
	return append(ps, opts.Promises...)
}

// signal is one reason for doubt.
type signal struct {
	name   string
	weight int
	reason words.Sentence
}

// evidence is what the signals are read from: the loop's attempts, the
// model's answer, the result, the SQL's reads, the schema and promises.
type evidence struct {
	attempts int // the rounds of the loop, the answer's included
	answer   *ModelAnswer
	res      *engine.Result
	read     []string // "Table.Column" the SQL reads
	schema   *engine.Schema
	promises []Promise
}

// signals are the reasons to doubt an answer, each with its weight.
func (ev evidence) signals() []signal {
	var out []signal
	if n := ev.attempts - 1; n > 0 {
		key := "confidence.repaired_n"
		if n == 1 {
			key = "confidence.repaired_1"
		}
		out = append(out, signal{"repaired", min(n, 2), words.New(key, words.Count(n))})
	}
	switch {
	case ev.res != nil && len(ev.res.Rows) == 0:
		out = append(out, signal{"empty", 1, words.New("confidence.empty")})
	case ev.res != nil && len(ev.res.Rows) == 1 && allNull(ev.res.Rows[0]):
		out = append(out, signal{"null", 1, words.New("confidence.null")})
	}
	if ev.res != nil {
		for _, p := range unkeyedJoins(ev.res.Query, ev.schema) {
			out = append(out, signal{"unkeyed_join", 1, words.New("confidence.unkeyed_join", words.Value(p.left.name()), words.Value(p.right.name()))})
		}
		seen := map[string]bool{}
		for _, p := range ev.promises {
			if seen[p.Source+"\x00"+p.Term] || p.keptBy(ev.res.Query, ev.read) {
				continue
			}
			seen[p.Source+"\x00"+p.Term] = true
			out = append(out, signal{"unused_" + p.Source, 1, words.New("confidence.unused", words.Quoted(p.Term), words.Value(p.Expected))})
		}
	}
	if ev.answer != nil && ev.answer.Clarification != "" {
		out = append(out, signal{"clarification", 1, words.New("confidence.clarification", words.Quoted(ev.answer.Clarification))})
	}
	return out
}

func allNull(row []engine.Value) bool {
	for _, v := range row {
		if v != nil {
			return false
		}
	}
	return true
}

// levelOf is the level the signals' weights give: none is high, one is
// medium, more is low.
func levelOf(sigs []signal) string {
	w := 0
	for _, s := range sigs {
		w += s.weight
	}
	switch {
	case w == 0:
		return engine.ConfidenceHigh
	case w == 1:
		return engine.ConfidenceMedium
	}
	return engine.ConfidenceLow
}

// assess is the answer's confidence from its signals, before any vote:
// one reading, its own.
func assess(ev evidence) (*engine.Confidence, []signal) {
	sigs := ev.signals()
	c := &engine.Confidence{Level: levelOf(sigs), Samples: 1, Agreeing: 1, Signals: []string{}, Votes: "none",
		Alternatives: []engine.Alternative{}}
	reasons := make([]words.Sentence, 0, len(sigs)+1)
	for _, s := range sigs {
		c.Signals = append(c.Signals, s.name)
		reasons = append(reasons, s.reason)
	}
	if len(sigs) == 0 {
		reasons = append(reasons, words.New("confidence.clean"))
	}
	c.Say(reasons...)
	return c, sigs
}

// raise is the level one step up.
func raise(level string) string {
	if level == engine.ConfidenceLow {
		return engine.ConfidenceMedium
	}
	return engine.ConfidenceHigh
}

// confidence assesses the answer of r (its SQL's reads come from the
// guard: the columns it compiles to) and returns the signals found.
func (a *Asker) confidence(ctx context.Context, question string, r attemptResult, attempts int, opts Options) (*engine.Confidence, []signal) {
	ev := evidence{attempts: attempts, answer: r.answer, res: r.res, promises: a.promises(ctx, question, opts)}
	if s, err := a.DB.Schema(ctx); err == nil {
		ev.schema = s
	}
	if r.res != nil {
		if v, err := a.DB.Validate(ctx, r.res.Query); err == nil {
			ev.read = v.ColumnsRead
		}
	}
	return assess(ev)
}

// judge sets the answer's confidence, as its rows are shown: from the
// signals alone, with its votes pending when they leave a doubt (and
// voting is on).
func (a *Asker) judge(ctx context.Context, ans *engine.Answer, question string, r attemptResult, opts Options) {
	c, _ := a.confidence(ctx, question, r, len(ans.Attempts), opts)
	switch {
	case c.Level == engine.ConfidenceHigh:
	case opts.NoVote:
		c.Votes = "off"
	default:
		c.Votes = "pending"
	}
	ans.Confidence = c
}
