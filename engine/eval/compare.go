package eval

import (
	"context"
	"fmt"

	"querent/engine"
)

// Comparison is querent eval --compare's table: one row per variant (and
// model), each computed from that variant's own run over the same items.
type Comparison struct {
	Gold     string `json:"gold"`
	Database string `json:"database"`
	Lenient  bool   `json:"lenient"`
	K        int    `json:"k"`
	// Items is the gold set's number of questions.
	Items    int               `json:"items"`
	Rows     []VariantScore    `json:"variants"`
	Warnings []string          `json:"warnings"`
	Errors   []engine.ErrorDoc `json:"errors"`
	// Reports are the variants' own reports, in the order they ran, Ran
	// their variants.
	Reports []*Report `json:"-"`
	Ran     []Variant `json:"-"`
}

// VariantScore is one row of the table: a variant's scores for one model.
// Rounds are model requests (the SQL, its repairs, the votes; no
// explanation is asked), tokens the model server's own counts (prompt
// tokens evaluated and generated), time the questions' wall clock.
type VariantScore struct {
	Variant
	Model             string   `json:"model"`
	ExecutionAccuracy float64  `json:"execution_accuracy"`
	Matches           int      `json:"matches"`
	Questions         int      `json:"questions"`
	Abstention        *float64 `json:"abstention"`
	Unanswerable      int      `json:"unanswerable"`
	FalseRefusals     int      `json:"false_refusals"`
	// Asked counts the questions the model was asked (not missing).
	Asked             int     `json:"asked"`
	RoundsTotal       int     `json:"rounds_total"`
	RoundsPerQuestion float64 `json:"rounds_per_question"`
	TokensTotal       int     `json:"tokens_total"`
	TokensPerQuestion float64 `json:"tokens_per_question"`
	TimeS             float64 `json:"time_s"`
	TimePerQuestionS  float64 `json:"time_per_question_s"`
}

// RunCompare runs the gold set once per variant, through Run, with the
// options o (a model source) changed by each: the schema's form, the
// glossary and the examples on or off (o.Glossary and o.Examples are what
// "on" sends), voting on or off. A variant that turns on what o does not
// give runs without it, with a warning. When a run stops early, the
// comparison of what was done comes back with its error.
func RunCompare(ctx context.Context, o Options, variants []Variant) (*Comparison, error) {
	if len(o.Models) == 0 {
		return nil, engine.Errorf(engine.CodeUsage, "--compare compares the prompts of a model: give --model").WithHint(
			"for example querent eval --gold chinook --model qwen2.5-coder:7b --compare ddl,mschema")
	}
	c := &Comparison{Gold: o.Gold.Name, Lenient: o.Lenient, K: max(o.K, 1), Items: len(o.Gold.Items), Rows: []VariantScore{},
		Warnings: []string{}, Errors: []engine.ErrorDoc{}}
	if o.DB != nil {
		c.Database = o.DB.Name()
	}
	for _, v := range variants {
		vo := o
		vo.Ask.SchemaForm, vo.Ask.NoVote = v.Schema, !v.Vote
		if !v.Glossary {
			vo.Glossary = nil
		} else if o.Glossary == nil {
			c.Warnings = append(c.Warnings, fmt.Sprintf("variant %s: there is no glossary to send, so it runs without one", v.Name))
		}
		if !v.Examples {
			vo.Examples = nil
		} else if o.Examples == nil {
			c.Warnings = append(c.Warnings, fmt.Sprintf("variant %s: there is no history of verified answers, so it runs without examples", v.Name))
		}
		if o.Progress != nil {
			name := v.Name
			vo.Progress = func(p Progress) {
				p.Variant = name
				o.Progress(p)
			}
		}
		rep, err := Run(ctx, vo)
		if rep != nil {
			c.add(v, rep)
		}
		if err != nil {
			c.Errors = append(c.Errors, engine.NewErrorDoc(err))
			return c, err
		}
	}
	return c, nil
}

// add adds a variant's report: one row per model, computed from its
// summary and its records.
func (c *Comparison) add(v Variant, rep *Report) {
	c.Reports, c.Ran = append(c.Reports, rep), append(c.Ran, v)
	for _, w := range rep.Warnings {
		c.Warnings = append(c.Warnings, "variant "+v.Name+": "+w)
	}
	for _, m := range rep.Models {
		row := VariantScore{Variant: v, ExecutionAccuracy: m.ExecutionAccuracy, Matches: m.Matches, Questions: m.Questions,
			Abstention: m.Abstention, Unanswerable: m.Unanswerable, FalseRefusals: m.FalseRefusals}
		if m.Model != nil {
			row.Model = *m.Model
		}
		for _, rec := range rep.Records {
			if rec.Model != row.Model || rec.LatencyS == nil {
				continue
			}
			row.Asked++
			row.RoundsTotal += rec.Rounds
			row.TokensTotal += rec.Tokens
			row.TimeS += *rec.LatencyS
		}
		if row.Asked > 0 {
			n := float64(row.Asked)
			row.RoundsPerQuestion = round4(float64(row.RoundsTotal) / n)
			row.TokensPerQuestion = round4(float64(row.TokensTotal) / n)
			row.TimePerQuestionS = round4(row.TimeS / n)
		}
		row.TimeS = round4(row.TimeS)
		c.Rows = append(c.Rows, row)
	}
}

// JSON is what querent eval --compare --format json prints and
// compare.json holds.
func (c *Comparison) JSON() ([]byte, error) { return marshalIndent(c, "") }
