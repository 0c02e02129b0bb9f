package eval

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"querent/engine"
	"querent/engine/ask"
	"querent/engine/words"
)

// DefaultMaxRows caps the rows of every gold and predicted result the
// scorer compares: far above the display cap, so that results are compared
// whole.
const DefaultMaxRows = 100000

// Sources of a run.
const (
	SourceModel       = "model"
	SourcePredictions = "predictions"
	SourceRegrade     = "regrade"
)

// Options configure a run. Exactly one source is given: Models (asked
// through Model), Predictions, or Records (a regrade).
type Options struct {
	Gold *GoldSet
	DB   engine.Database

	// Model answers the questions of every model named in Models, through
	// the real ask loop (ask.Asker), each question K times (default 1).
	Model  engine.Model
	Models []string
	K      int
	// EmbedModel, when set, lets the ask loop re-rank tables by
	// embeddings on databases too large for one prompt (as querent ask
	// does).
	EmbedModel string
	// Ask bounds each question (MaxRows, Timeout, MaxRepairs…); its
	// Progress and Client are the runner's.
	Ask ask.Options
	// Glossary, when set, sends the glossary's entries each question uses;
	// Examples, when set, is the history whose verified answers the
	// prompt quotes, less the answer to the question being asked
	// (examplesOnly; nothing is recorded). RunCompare's variants turn
	// them on and off.
	Glossary ask.Glossary
	Examples engine.History

	// Predictions are ready-made answers by item id (ParsePredictions).
	Predictions map[string]Prediction

	// Records are the records of an earlier run, to score again.
	Records []Record

	// Lenient lets text "10" equal 10 and floats match to 1e-6 relative.
	Lenient bool
	// MaxRows caps the results compared (default DefaultMaxRows); Timeout
	// bounds each query the scorer runs (default 30 s).
	MaxRows int
	Timeout time.Duration

	// Progress, when set, is called before each question (Record nil) and
	// after it is scored.
	Progress func(Progress)
}

// Progress is one step of a run, for progress displays.
type Progress struct {
	Model string
	// Variant is the variant's name under RunCompare; "" otherwise.
	Variant string
	Item    *Item
	Try     int
	K       int
	// Done counts the questions finished so far, of Total.
	Done, Total int
	// Record is the scored record; nil while the question is asked.
	Record *Record
}

// Run evaluates one source against a gold set on a database and returns the
// report. The gold queries are checked first: a gold set that does not fit
// the database stops the run before any model is asked. When the run stops
// early (cancelled, the model server gone), the report of what was done
// comes back with the error; the questions not asked count as missing.
func Run(ctx context.Context, o Options) (*Report, error) {
	if o.Gold == nil || o.DB == nil {
		return nil, engine.Errorf(engine.CodeInternal, "eval.Run needs a gold set and a database")
	}
	sources := 0
	if len(o.Models) > 0 {
		sources++
	}
	if o.Predictions != nil {
		sources++
	}
	if o.Records != nil {
		sources++
	}
	if sources != 1 {
		return nil, engine.Errorf(engine.CodeUsage, "give one source to evaluate: models, predictions or records to regrade")
	}
	if len(o.Models) > 0 && o.Model == nil {
		return nil, engine.Errorf(engine.CodeInternal, "eval.Run was given model names but no model")
	}
	if o.K <= 0 {
		o.K = 1
	}
	if o.MaxRows <= 0 {
		o.MaxRows = DefaultMaxRows
	}
	if o.Timeout <= 0 {
		o.Timeout = engine.DefaultTimeout
	}
	r := &runner{o: o, gold: map[string][]goldQuery{}}
	rep := &Report{Gold: o.Gold.Name, GoldSource: o.Gold.Source, Database: o.DB.Name(), Lenient: o.Lenient, K: o.K,
		Started: time.Now().UTC(), Warnings: []string{}, Errors: []engine.ErrorDoc{}, gold: o.Gold}
	start := time.Now()
	if err := r.prepare(ctx); err != nil {
		return nil, err
	}
	var err error
	switch {
	case len(o.Models) > 0:
		rep.Source = SourceModel
		r.total = len(o.Models) * o.K * len(o.Gold.Items)
		for _, name := range o.Models {
			if err = r.askModel(ctx, name); err != nil {
				break
			}
		}
	case o.Predictions != nil:
		rep.Source = SourcePredictions
		r.total = len(o.Gold.Items)
		err = r.predictions(ctx)
	default:
		rep.Source = SourceRegrade
		r.total = len(o.Records)
		err = r.regrade(ctx)
		rep.K = 1
		for _, rec := range r.records {
			rep.K = max(rep.K, rec.Try)
		}
	}
	rep.Warnings = append(rep.Warnings, r.warnings...)
	if err != nil {
		rep.Errors = append(rep.Errors, engine.NewErrorDoc(err))
	}
	models := o.Models
	if rep.Source != SourceModel {
		models = nil
		for _, rec := range r.records {
			if !slices.Contains(models, rec.Model) {
				models = append(models, rec.Model)
			}
		}
		if len(models) == 0 {
			models = []string{""}
		}
	}
	rep.Records = r.withMissing(models, rep.K, rep.Source)
	rep.Elapsed = time.Since(start)
	for _, m := range models {
		rep.Models = append(rep.Models, summarise(rep, m))
	}
	return rep, err
}

// goldQuery is one gold query with its result.
type goldQuery struct {
	sql string
	rs  ResultSet
}

type runner struct {
	o        Options
	gold     map[string][]goldQuery
	records  []Record
	warnings []string
	done     int
	total    int
}

// prepare runs every gold query once; a gold set that does not fit the
// database is a configuration error.
func (r *runner) prepare(ctx context.Context) error {
	var problems []string
	for _, it := range r.o.Gold.Items {
		for i, q := range it.GoldQueries() {
			rs, truncated, err := r.run(ctx, q)
			what := "the gold SQL"
			if i > 0 {
				what = fmt.Sprintf("alternative %d", i)
			}
			switch code := engine.ErrorCode(err); {
			case code == engine.CodeCancelled || code == engine.CodeDatabase:
				return err
			case err != nil:
				problems = append(problems, fmt.Sprintf("item %q: %s does not run: %s", it.ID, what, engine.AsError(err).Message))
				continue
			case truncated:
				problems = append(problems, fmt.Sprintf("item %q: %s returns more than %d rows", it.ID, what, r.o.MaxRows))
			}
			r.gold[it.ID] = append(r.gold[it.ID], goldQuery{sql: q, rs: rs})
		}
	}
	if len(problems) > 0 {
		const shown = 10
		more := ""
		if len(problems) > shown {
			more = fmt.Sprintf("\n(and %d more)", len(problems)-shown)
			problems = problems[:shown]
		}
		return engine.Errorf(engine.CodeUsage, "the gold set %s does not fit the database %s:\n%s%s", r.o.Gold.Name, r.o.DB.Name(),
			strings.Join(problems, "\n"), more).SayHint(words.New("eval.check_gold", words.DB, words.Gold))
	}
	return nil
}

// run runs sql under the guard with the scorer's bounds.
func (r *runner) run(ctx context.Context, sql string) (ResultSet, bool, error) {
	res, err := r.o.DB.Run(ctx, sql, engine.RunOptions{MaxRows: r.o.MaxRows, Timeout: r.o.Timeout})
	if err != nil {
		return ResultSet{}, false, err
	}
	return resultSet(res.Columns, res.Rows), res.Truncated, nil
}

func resultSet(cols []engine.Column, rows [][]engine.Value) ResultSet {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.Name
	}
	return ResultSet{Columns: names, Rows: rows}
}

func (r *runner) progress(p Progress) {
	if r.o.Progress != nil {
		p.Done, p.Total = r.done, r.total
		r.o.Progress(p)
	}
}

func (r *runner) newRecord(it *Item, try int, source, model string) Record {
	return Record{ID: it.ID, Try: try, Source: source, Model: model, Gold: r.o.Gold.Name, Database: r.o.DB.Name(),
		Question: it.Question, Difficulty: it.Difficulty, Follows: it.Follows, Attempts: []engine.Attempt{},
		Columns: []string{}, Relaxed: []string{}, Time: time.Now().UTC()}
}

// maxUnavailable is how many questions in a row may find the model server
// unavailable (or too slow) before the run stops.
const maxUnavailable = 3

// askModel asks every question K times through the ask loop. The items of
// a follow-up chain share one session per try. Nothing is written to the
// history: past answers would leak into later prompts as examples.
func (r *runner) askModel(ctx context.Context, name string) error {
	asker, examples := r.asker(name)
	opts := r.o.Ask
	// Only the SQL is scored: the explanation's request would cost time and
	// tokens for nothing.
	opts.Client, opts.Progress, opts.OnRows, opts.NoExplain = "eval", nil, nil, true
	unavailable := 0
	for try := 1; try <= r.o.K; try++ {
		sessions := map[string]*engine.Session{}
		for _, it := range r.o.Gold.Items {
			if err := ctx.Err(); err != nil {
				return engine.AsError(err)
			}
			r.progress(Progress{Model: name, Item: it, Try: try, K: r.o.K})
			if examples != nil {
				examples.skip = foldQuestion(it.Question)
			}
			var sess *engine.Session
			if root := r.o.Gold.Root(it); root != "" {
				if sess = sessions[root]; sess == nil {
					sess = &engine.Session{Database: r.o.DB.Name()}
					sessions[root] = sess
				}
			}
			o := opts
			if sess != nil {
				o.FollowUp = ask.FollowUpYes // the gold set says it follows: read it so however it reads
			}
			start := time.Now()
			ans, err := asker.Ask(ctx, it.Question, sess, o)
			latency := engine.Seconds(time.Since(start))
			switch code := engine.ErrorCode(err); code {
			case engine.CodeCancelled, engine.CodeModelMissing, engine.CodeDatabase:
				return err
			case engine.CodeLLMUnavailable:
				// Too slow for --model-timeout, or gone: the question
				// failed; several in a row stop the run (below).
				unavailable++
			default:
				unavailable = 0
			}
			rec := r.newRecord(it, try, SourceModel, name)
			rec.LatencyS = &latency
			if ans != nil {
				// The model server's own counts, from the answer: the prompt
				// tokens it evaluated (not those it kept from the previous
				// request) and the tokens it generated.
				rec.PromptTokens, rec.OutputTokens = ans.ModelStats.Tokens()
				if ans.ModelStats != nil {
					rec.Rounds = len(ans.ModelStats.Rounds)
				}
			}
			rec.Tokens = rec.PromptTokens + rec.OutputTokens
			var res *ResultSet
			if ans != nil {
				rec.SQL = ans.Query
				rec.Attempts = ans.Attempts
				if err == nil {
					rs := ResultSet{Columns: ans.Results.Columns, Rows: ans.Results.Values}
					if ans.Truncated {
						// The answer stops at the display cap: compare
						// the whole result.
						full, _, rerr := r.run(ctx, ans.Query)
						if rerr == nil {
							rs = full
						}
					}
					res = &rs
				}
			}
			if err != nil {
				d := engine.NewErrorDoc(err)
				rec.Error = &d
			}
			if gerr := r.grade(ctx, it, &rec, res); gerr != nil {
				return gerr
			}
			r.finish(name, it, try, rec)
			if unavailable >= maxUnavailable {
				return err
			}
		}
	}
	return nil
}

// asker is the ask loop for the model name, with the glossary and the
// verified examples when the options give them.
func (r *runner) asker(name string) (*ask.Asker, *examplesOnly) {
	a := &ask.Asker{DB: r.o.DB, Model: r.o.Model, ModelName: name, EmbedModel: r.o.EmbedModel, Glossary: r.o.Glossary}
	var ex *examplesOnly
	if r.o.Examples != nil {
		ex = &examplesOnly{h: r.o.Examples}
		a.History = ex
	}
	return a, ex
}

func (r *runner) finish(model string, it *Item, try int, rec Record) {
	r.records = append(r.records, rec)
	r.done++
	r.progress(Progress{Model: model, Item: it, Try: try, K: r.o.K, Record: &r.records[len(r.records)-1]})
}

// predictions scores ready-made predictions.
func (r *runner) predictions(ctx context.Context) error {
	for _, it := range r.o.Gold.Items {
		r.progress(Progress{Item: it, Try: 1, K: 1})
		p := r.o.Predictions[it.ID]
		rec := r.newRecord(it, 1, SourcePredictions, "")
		rec.SQL = p.SQL
		switch {
		case p.Unanswerable != "":
			rec.Error = &engine.ErrorDoc{Type: engine.CodeUnanswerable, Message: p.Unanswerable}
		case p.Clarification != "":
			rec.Error = &engine.ErrorDoc{Type: engine.CodeClarification, Message: p.Clarification}
		}
		if err := r.grade(ctx, it, &rec, nil); err != nil {
			return err
		}
		r.finish("", it, 1, rec)
	}
	return nil
}

// regrade scores old records again under the current gold set and flags.
func (r *runner) regrade(ctx context.Context) error {
	warned := map[string]bool{}
	for _, rec := range r.o.Records {
		it := r.o.Gold.Item(rec.ID)
		if it == nil {
			if !warned[rec.ID] {
				warned[rec.ID] = true
				r.warnings = append(r.warnings, fmt.Sprintf("the record %q is not an item of the gold set %s; it is left out", rec.ID, r.o.Gold.Name))
			}
			continue
		}
		if rec.Question != it.Question && !warned[rec.ID] {
			warned[rec.ID] = true
			r.warnings = append(r.warnings, fmt.Sprintf("the question of %q changed since it was asked (%q, now %q)", rec.ID, rec.Question, it.Question))
		}
		r.progress(Progress{Model: rec.Model, Item: it, Try: rec.Try, K: rec.Try})
		rec.Gold, rec.Difficulty, rec.Follows = r.o.Gold.Name, it.Difficulty, it.Follows
		if rec.Attempts == nil {
			rec.Attempts = []engine.Attempt{}
		}
		if err := r.grade(ctx, it, &rec, nil); err != nil {
			return err
		}
		r.finish(rec.Model, it, rec.Try, rec)
	}
	if len(r.records) == 0 {
		return engine.Errorf(engine.CodeUsage, "no record matches an item of the gold set %s", r.o.Gold.Name).SayHint(
			words.New("eval.regrade", words.Gold))
	}
	return nil
}

// withMissing returns the records with a missing record for every item
// and try that has none, per model, in the gold set's order.
func (r *runner) withMissing(models []string, k int, source string) []Record {
	type key struct {
		model, id string
		try       int
	}
	have := map[key][]Record{}
	for _, rec := range r.records {
		kk := key{rec.Model, rec.ID, rec.Try}
		have[kk] = append(have[kk], rec)
	}
	var out []Record
	for _, m := range models {
		for try := 1; try <= k; try++ {
			for _, it := range r.o.Gold.Items {
				if recs, ok := have[key{m, it.ID, try}]; ok {
					out = append(out, recs...)
					continue
				}
				src := source
				if src == SourceRegrade {
					src = SourceModel
					if m == "" {
						src = SourcePredictions
					}
				}
				rec := r.newRecord(it, try, src, m)
				rec.Outcome, rec.Reason, rec.Lenient = OutcomeMissing, "not asked: the run stopped before this question", r.o.Lenient
				if source != SourceModel {
					rec.Reason = "no prediction"
				}
				out = append(out, rec)
			}
		}
	}
	return out
}

// isAbstention reports whether an error type is the model declining.
func isAbstention(code string) bool {
	return code == engine.CodeUnanswerable || code == engine.CodeClarification
}

// grade scores one record: it runs the SQL when res is nil, compares the
// result with each gold query and sets the outcome, match and reason. Only
// a cancellation (or a database that cannot be read) is returned.
func (r *runner) grade(ctx context.Context, it *Item, rec *Record, res *ResultSet) error {
	rec.Match, rec.Relaxed, rec.Lenient = false, []string{}, r.o.Lenient
	if rec.Error != nil && isAbstention(rec.Error.Type) {
		rec.Outcome = OutcomeAbstained
		if it.Answerable() {
			rec.Reason = fmt.Sprintf("a false refusal (%s): %s", rec.Error.Type, oneLine(rec.Error.Message, 160))
		} else {
			rec.Match = true
			rec.Reason = "abstained: " + oneLine(rec.Error.Message, 160)
		}
		return nil
	}
	if rec.Error != nil {
		rec.Outcome = OutcomeFailed
		rec.Reason = fmt.Sprintf("failed (%s): %s", rec.Error.Type, oneLine(rec.Error.Message, 200))
		return nil
	}
	if strings.TrimSpace(rec.SQL) == "" {
		rec.Outcome, rec.Reason = OutcomeMissing, "no prediction"
		return nil
	}
	truncated := false
	if res == nil {
		rs, trunc, err := r.run(ctx, rec.SQL)
		if err != nil {
			e := engine.AsError(err)
			if e.Code == engine.CodeCancelled || e.Code == engine.CodeDatabase {
				return err
			}
			rec.Outcome = OutcomeFailed
			rec.Reason = fmt.Sprintf("the SQL did not run (%s): %s", e.Code, oneLine(e.Message, 200))
			return nil
		}
		res, truncated = &rs, trunc
	}
	rec.Columns, rec.RowCount, rec.Truncated = res.Columns, len(res.Rows), truncated
	if rec.Columns == nil {
		rec.Columns = []string{}
	}
	if !it.Answerable() {
		rec.Outcome = OutcomeWrongResult
		rec.Reason = fmt.Sprintf("answered (%s) a question the schema cannot answer: %s", plural(len(res.Rows), "row"), it.Unanswerable)
		return nil
	}
	golds := r.gold[it.ID]
	var first Verdict
	for i, g := range golds {
		rule := it.Rule(g.sql, r.o.Lenient)
		v := Compare(g.rs, *res, rule)
		if i == 0 {
			first = v
		}
		if !v.Match {
			continue
		}
		rec.Outcome, rec.Match, rec.Reason = OutcomeMatch, true, v.Reason
		if i > 0 {
			rec.Reason += fmt.Sprintf(" (gold alternative %d)", i)
		}
		rec.Relaxed = relaxedNeeded(g.rs, *res, rule)
		return nil
	}
	rec.Outcome, rec.Reason = OutcomeWrongResult, first.Reason
	if truncated {
		rec.Reason += fmt.Sprintf(" (the prediction has more than %d rows)", r.o.MaxRows)
	}
	return nil
}

// relaxedNeeded lists the loosenings of rule a match needed: those that,
// turned off alone, make it fail (or all of them when none alone does but
// the strict rule fails).
func relaxedNeeded(gold, pred ResultSet, rule Rule) []string {
	strict := rule
	strict.Ranking, strict.ExtraColumns, strict.Lenient = false, false, false
	out := []string{}
	if strict == rule || Compare(gold, pred, strict).Match {
		return out
	}
	var on []string
	for _, x := range []struct {
		name string
		off  func(*Rule)
		set  bool
	}{
		{"ranking", func(r *Rule) { r.Ranking = false }, rule.Ranking},
		{"extra_columns", func(r *Rule) { r.ExtraColumns = false }, rule.ExtraColumns},
		{"lenient", func(r *Rule) { r.Lenient = false }, rule.Lenient},
	} {
		if !x.set {
			continue
		}
		on = append(on, x.name)
		r2 := rule
		x.off(&r2)
		if !Compare(gold, pred, r2).Match {
			out = append(out, x.name)
		}
	}
	if len(out) == 0 {
		return on
	}
	return out
}

// oneLine makes s one line of at most n characters.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		s = string(r[:n-1]) + "…"
	}
	return s
}
