package ask

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"querent/engine"
	"querent/engine/describe"
	"querent/engine/sqltext"
	"querent/engine/words"
)

// MaxVotes is how many more readings of a doubtful question are drawn at
// most, after its rows are shown.
const MaxVotes = 4

// voteTemperature is the temperature of the other readings: above 0, so
// that the model reads the question again rather than repeating itself.
const voteTemperature = 0.7

// reading is one reading of the question: its SQL and what the result
// was, kept small (a hash of the rows and a few of them, never a copy).
type reading struct {
	sql    string
	answer *ModelAnswer
	said   engine.Message
	// key identifies the result set (resultKey); ok is false when there is
	// no result (err says why).
	key       [32]byte
	ok        bool
	err       *engine.AttemptError
	cols      []engine.Column
	rows      [][]engine.Value // at most engine.AlternativeRows
	rowCount  int
	truncated bool
	read      []string // "Table.Column" the SQL reads
	tables    []string
}

// group is the readings that gave one result.
type group struct {
	members []int // indexes of readings, in order
}

// resultKey hashes a result set so that two results compare by their
// values without keeping their rows: each row's values normalised (1 and
// 1.0 are one number, floats to 12 significant digits) and, the columns'
// order aside, sorted; the rows in order when ordered, else sorted.
func resultKey(cols int, rows [][]engine.Value, truncated, ordered bool) [32]byte {
	hashes := make([][16]byte, len(rows))
	vals := make([]string, 0, cols)
	for i, row := range rows {
		vals = vals[:0]
		for _, v := range row {
			vals = append(vals, normValue(v))
		}
		slices.Sort(vals)
		h := sha256.New()
		for _, v := range vals {
			var n [8]byte
			binary.LittleEndian.PutUint64(n[:], uint64(len(v)))
			h.Write(n[:])
			h.Write([]byte(v))
		}
		copy(hashes[i][:], h.Sum(nil))
	}
	if !ordered {
		slices.SortFunc(hashes, func(a, b [16]byte) int { return strings.Compare(string(a[:]), string(b[:])) })
	}
	h := sha256.New()
	h.Write([]byte(strconv.Itoa(cols) + "/" + strconv.FormatBool(truncated) + "/"))
	for _, x := range hashes {
		h.Write(x[:])
	}
	var out [32]byte
	copy(out[:], h.Sum(nil))
	return out
}

// normValue writes a value so that equal values write the same.
func normValue(v engine.Value) string {
	switch x := v.(type) {
	case nil:
		return "n"
	case int64:
		return "i" + strconv.FormatInt(x, 10)
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			return "i" + strconv.FormatInt(int64(x), 10)
		}
		return "f" + strconv.FormatFloat(x, 'g', 12, 64)
	case string:
		return "s" + x
	case []byte:
		return "b" + string(x)
	}
	return "?" + fmt.Sprint(v)
}

// readingOf is a reading of the result res.
func readingOf(sql string, res *engine.Result, read []string, ordered bool) reading {
	rd := reading{sql: sql, ok: true, cols: res.Columns, rowCount: len(res.Rows), truncated: res.Truncated, read: read, tables: res.TablesUsed,
		key: resultKey(len(res.Columns), res.Rows, res.Truncated, ordered)}
	for _, row := range res.Rows[:min(len(res.Rows), engine.AlternativeRows)] {
		rd.rows = append(rd.rows, append([]engine.Value(nil), row...))
	}
	return rd
}

// voter draws the other readings of one question.
type voter struct {
	a       *Asker
	l       *loop
	stats   *engine.ModelStats
	ordered bool
	reads   []reading
	groups  []group
}

// vote draws up to MaxVotes more readings of a doubtful answer (after its
// rows were shown), runs each under the same guard, groups the results by
// equality, and answers with the majority's result, the others as
// alternatives. It returns the attempt the answer now stands on.
func (a *Asker) vote(ctx context.Context, ans *engine.Answer, r attemptResult, l *loop, stats *engine.ModelStats, session *engine.Session, opts Options) attemptResult {
	c := ans.Confidence
	if c == nil || c.Votes != "pending" {
		return r
	}
	defer func() {
		if opts.OnVotes != nil {
			opts.OnVotes(ans)
		}
	}()
	v := &voter{a: a, l: l, stats: stats, ordered: sqltext.HasTopLevelOrderBy(r.res.Query) && len(r.res.Rows) > 1}
	first := readingOf(r.res.Query, r.res, a.columnsRead(ctx, r.res.Query), v.ordered)
	first.answer, first.said = r.answer, r.said
	v.add(first)
	state := "done"
	var failure string
	for n := 1; n <= MaxVotes && !v.decided(); n++ {
		l.progress(Progress{Stage: "voting", Vote: n, Votes: MaxVotes})
		rd, err := v.draw(ctx)
		if err != nil {
			state, failure = "failed", engine.AsError(err).Message
			if ctx.Err() != nil {
				state = "cancelled"
			}
			break
		}
		v.add(rd)
	}
	if len(v.reads) == 1 {
		c.Votes = state
		key := "confidence.votes_cancelled"
		if state == "failed" {
			key = "confidence.votes_failed"
		}
		c.Say(append(c.ReasonWords, words.New(key, words.Value(failure)))...)
		return r
	}
	before := r.res.Query
	r = v.count(ctx, ans, r, state, failure, opts)
	if session != nil && len(session.Turns) > 0 && r.res.Query != before {
		t := &session.Turns[len(session.Turns)-1]
		t.SQL, t.RowCount, t.Columns = r.res.Query, len(r.res.Rows), columnNames(r.res.Columns)
	}
	return r
}

// columnNames are the names of cols.
func columnNames(cols []engine.Column) []string {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.Name
	}
	return names
}

// columnsRead is what the guard says sql reads ("Table.Column").
func (a *Asker) columnsRead(ctx context.Context, sql string) []string {
	if val, err := a.DB.Validate(ctx, sql); err == nil {
		return val.ColumnsRead
	}
	return nil
}

// add adds a reading to its group.
func (v *voter) add(rd reading) {
	i := len(v.reads)
	v.reads = append(v.reads, rd)
	for g := range v.groups {
		if o := v.reads[v.groups[g].members[0]]; o.ok == rd.ok && (rd.ok && o.key == rd.key || !rd.ok && o.err != nil && rd.err != nil && o.err.Type == rd.err.Type) {
			v.groups[g].members = append(v.groups[g].members, i)
			return
		}
	}
	v.groups = append(v.groups, group{members: []int{i}})
}

// decided reports whether one result holds a majority of all the readings
// there can be: more would not change the answer.
func (v *voter) decided() bool {
	for _, g := range v.groups {
		if v.reads[g.members[0]].ok && 2*len(g.members) > 1+MaxVotes {
			return true
		}
	}
	return false
}

// draw asks the model for another reading of the question (the question's
// first prompt, at voteTemperature) and runs its SQL under the guard. A
// reading the model or the guard spoils is a reading without a result;
// the error is for what ends the votes (the model server down, a cancel).
func (v *voter) draw(ctx context.Context) (reading, error) {
	a, l := v.a, v.l
	req := engine.ChatRequest{Model: a.ModelName, Messages: l.first, Format: AnswerSchema(), Temperature: voteTemperature,
		NumCtx: a.contextWindow(l.first, l.opts), NumPredict: l.opts.NumPredict, Think: a.thinkSwitch(false)}
	resp, err := a.Model.Chat(ctx, req)
	if round := a.round("vote", req, resp); round != nil {
		v.stats.Rounds = append(v.stats.Rounds, *round)
	}
	if err != nil {
		if e := engine.AsError(err); e.Code != engine.CodeModelError || ctx.Err() != nil {
			return reading{}, err
		}
		return reading{err: &engine.AttemptError{Type: engine.CodeModelError, Message: engine.AsError(err).Message}}, nil
	}
	ma, perr := ParseModelAnswer(resp.Content)
	if perr != nil {
		return reading{err: &engine.AttemptError{Type: engine.CodeModelError, Message: perr.Error()}}, nil
	}
	rd := reading{sql: ma.SQL, answer: ma, said: engine.Message{Role: "assistant", Content: resp.Content}}
	if ma.SQL == "" {
		rd.err = &engine.AttemptError{Type: engine.CodeClarification, Message: ma.Clarification + ma.Unanswerable}
		return rd, nil
	}
	read := a.columnsRead(ctx, ma.SQL)
	res, err := a.DB.Run(ctx, ma.SQL, engine.RunOptions{MaxRows: l.opts.MaxRows, Timeout: l.opts.Timeout, Hide: a.hide(l.opts)})
	if err != nil {
		if ctx.Err() != nil {
			return reading{}, err
		}
		e := engine.AsError(err)
		rd.err = &engine.AttemptError{Type: e.Code, Message: e.Message}
		return rd, nil
	}
	out := readingOf(ma.SQL, res, read, v.ordered)
	out.answer, out.said = ma, rd.said
	return out, nil
}

// winner is the group of the most readings with a result; on a tie, the
// one met first (the answer's own reading is the first).
func (v *voter) winner() int {
	best := -1
	for g, gr := range v.groups {
		if v.reads[gr.members[0]].ok && (best < 0 || len(gr.members) > len(v.groups[best].members)) {
			best = g
		}
	}
	return best
}

// count answers with the majority's result: when it is not the answer's
// own, its SQL is run again under the guard (its rows were not kept) and
// the answer takes its result; the confidence says how many readings
// agree, and lists the other results.
func (v *voter) count(ctx context.Context, ans *engine.Answer, r attemptResult, state, failure string, opts Options) attemptResult {
	a := v.a
	win := v.winner()
	c := ans.Confidence
	var reasons []words.Sentence
	if win != 0 {
		rd := v.reads[v.groups[win].members[0]]
		res, err := a.DB.Run(ctx, rd.sql, engine.RunOptions{MaxRows: opts.MaxRows, Timeout: opts.Timeout, Hide: a.hide(opts)})
		if err == nil {
			a.takeResult(ctx, ans, res)
			r.res, r.answer, r.said = res, rd.answer, rd.said
			fresh, _ := a.confidence(ctx, derefQuestion(ans), r, 1, opts)
			c.Level, c.Signals = fresh.Level, fresh.Signals
			if len(fresh.Signals) > 0 {
				reasons = append(reasons, fresh.ReasonWords...) // else "clean", which would be about the vote alone
			}
			reasons = append(reasons, words.New("confidence.outvoted"))
		} else {
			win = 0
		}
	}
	if win == 0 {
		reasons = append(reasons, c.ReasonWords...)
	}
	agreeing, samples, ran := len(v.groups[win].members), len(v.reads), 0
	for _, rd := range v.reads {
		if rd.ok {
			ran++
		}
	}
	// Among the readings that ran (one that failed says nothing of the
	// result): three or more all agreeing raise the level a step; a
	// majority that is not all of them leaves it at most medium; no
	// majority makes it low.
	switch {
	case agreeing == ran && ran >= 3:
		c.Level = raise(c.Level)
	case agreeing == ran:
	case 2*agreeing <= ran:
		c.Level = engine.ConfidenceLow
	case c.Level == engine.ConfidenceHigh:
		c.Level = engine.ConfidenceMedium
	}
	c.Samples, c.Agreeing, c.Votes = samples, agreeing, state
	summary := []words.Part{words.New("confidence.votes", words.Count(agreeing-1), words.Count(samples-1))}
	chosen := v.reads[v.groups[win].members[0]]
	c.Alternatives = []engine.Alternative{}
	for _, g := range v.others(win) {
		alt, why := v.alternative(g, chosen)
		c.Alternatives = append(c.Alternatives, alt)
		summary = append(summary, why)
	}
	reasons = append(reasons, words.Seq(words.List(words.Semi, summary...)))
	switch state {
	case "cancelled":
		reasons = append(reasons, words.New("confidence.votes_cancelled"))
	case "failed":
		reasons = append(reasons, words.New("confidence.votes_failed", words.Value(failure)))
	}
	c.Say(reasons...)
	return r
}

// others are the groups other than win, the most readings first.
func (v *voter) others(win int) []group {
	var out []group
	for g, gr := range v.groups {
		if g != win {
			out = append(out, gr)
		}
	}
	slices.SortStableFunc(out, func(x, y group) int { return len(y.members) - len(x.members) })
	return out
}

// alternative is a group's result as the answer lists it, and the
// sentence that says how it differs from chosen.
func (v *voter) alternative(g group, chosen reading) (engine.Alternative, words.Sentence) {
	rd := v.reads[g.members[0]]
	cols := rd.cols
	if cols == nil {
		cols = []engine.Column{}
	}
	names := columnNames(cols)
	rows := rd.rows
	if rows == nil {
		rows = [][]engine.Value{}
	}
	tables := rd.tables
	if tables == nil {
		tables = []string{}
	}
	why := difference(len(g.members), rd, chosen)
	return engine.Alternative{SQL: rd.sql, Columns: cols, Rows: engine.Rows{Columns: names, Values: rows}, RowCount: rd.rowCount,
		Truncated: rd.truncated, Error: rd.err, Agreeing: len(g.members), TablesUsed: tables,
		Reason: words.English(why), ReasonSaid: words.Speaker{}.Every(why)}, why
}

// difference says how n readings like rd differ from chosen, from the
// columns each reads (the guard's), never from the model's words.
func difference(n int, rd, chosen reading) words.Sentence {
	count := words.Count(n)
	switch {
	case rd.err != nil && rd.err.Type == engine.CodeClarification:
		return words.New("confidence.alt_declined", count)
	case rd.err != nil:
		return words.New("confidence.alt_failed", count, words.Value(rd.err.Type))
	}
	only, missing := minus(rd.read, chosen.read), minus(chosen.read, rd.read)
	switch {
	case len(only) > 0 && len(missing) > 0:
		return words.New("confidence.alt_instead", count, words.And(4, only...), words.And(4, missing...))
	case len(only) > 0:
		return words.New("confidence.alt_also", count, words.And(4, only...))
	case len(missing) > 0:
		return words.New("confidence.alt_without", count, words.And(4, missing...))
	}
	return words.New("confidence.alt_other_rows", count, words.Count(rd.rowCount), words.Count(chosen.rowCount))
}

// minus is the names of a that b lacks (case aside), in a's order.
func minus(a, b []string) []string {
	var out []string
	for _, x := range a {
		if !slices.ContainsFunc(b, func(y string) bool { return strings.EqualFold(x, y) }) {
			out = append(out, x)
		}
	}
	return out
}

// takeResult makes res the answer's result: rows, statistics, chart and
// hints; the session's last turn is its SQL.
func (a *Asker) takeResult(ctx context.Context, ans *engine.Answer, res *engine.Result) {
	warnings, said := ans.Warnings, ans.WarningWords
	describe.SetResult(ans, res)
	ans.Warnings, ans.WarningWords = warnings, said
	ans.OptimizationHints = []string{}
	addHints(ctx, a.DB, ans, res.Query)
}

func derefQuestion(ans *engine.Answer) string {
	if ans.Question == nil {
		return ""
	}
	return *ans.Question
}
