package eval

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"querent/engine"
	"querent/engine/files"
)

// Report is a whole run: one ModelReport per model (one for predictions),
// the records behind them, and what went wrong.
type Report struct {
	Gold       string
	GoldSource string
	Database   string
	// Source is "model", "predictions" or "regrade".
	Source  string
	Lenient bool
	// K is the number of tries per question (pass@k, pass^k).
	K        int
	Started  time.Time
	Elapsed  time.Duration
	Models   []*ModelReport
	Records  []Record
	Warnings []string
	// Errors holds the error that stopped the run early, if any.
	Errors []engine.ErrorDoc

	gold *GoldSet
}

// ModelReport is the `querent eval --format json` document of design.md for
// one model (or one set of predictions). Fields after "lenient" are
// additions to the contract.
type ModelReport struct {
	Items             []ItemScore                `json:"items"`
	ExecutionAccuracy float64                    `json:"execution_accuracy"`
	Abstention        *float64                   `json:"abstention"`
	FalseRefusals     int                        `json:"false_refusals"`
	ByDifficulty      map[string]DifficultyScore `json:"by_difficulty"`
	PassAtK           *float64                   `json:"pass_at_k"`
	PassHatK          *float64                   `json:"pass_hat_k"`
	LatencyP50S       *float64                   `json:"latency_p50_s"`
	LatencyP95S       *float64                   `json:"latency_p95_s"`
	TokensTotal       int                        `json:"tokens_total"`
	Lenient           bool                       `json:"lenient"`

	// Model is the model's name; null for predictions.
	Model    *string `json:"model"`
	Gold     string  `json:"gold"`
	Database string  `json:"database"`
	Source   string  `json:"source"`
	K        int     `json:"k"`
	// Matches of Questions (items × tries) matched.
	Matches   int `json:"matches"`
	Questions int `json:"questions"`
	// Outcomes counts each outcome.
	Outcomes map[string]int `json:"outcomes"`
	// Unanswerable counts the unanswerable questions (items × tries).
	Unanswerable int `json:"unanswerable"`
	// Repairs is the sum of the ask loop's repairs; RepairedItems the
	// questions that needed at least one.
	Repairs       int `json:"repairs"`
	RepairedItems int `json:"repaired_items"`
	// RelaxedMatches counts the matches that needed ranking,
	// extra_columns or lenient (each item says which in "relaxed").
	RelaxedMatches int               `json:"relaxed_matches"`
	Warnings       []string          `json:"warnings"`
	Errors         []engine.ErrorDoc `json:"errors"`
}

// ItemScore is one item and try of a report.
type ItemScore struct {
	ID         string   `json:"id"`
	Match      bool     `json:"match"`
	Outcome    string   `json:"outcome"`
	Reason     string   `json:"reason"`
	LatencyS   *float64 `json:"latency_s"`
	Attempts   int      `json:"attempts"`
	Repairs    int      `json:"repairs"`
	Tokens     int      `json:"tokens"`
	Try        int      `json:"try"`
	Difficulty string   `json:"difficulty"`
	Relaxed    []string `json:"relaxed"`
}

// DifficultyScore is the accuracy on one difficulty.
type DifficultyScore struct {
	Questions         int     `json:"questions"`
	Matches           int     `json:"matches"`
	ExecutionAccuracy float64 `json:"execution_accuracy"`
}

func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }

func ptr(x float64) *float64 { return &x }

// summarise scores one model's records.
func summarise(rep *Report, model string) *ModelReport {
	mr := &ModelReport{Items: []ItemScore{}, ByDifficulty: map[string]DifficultyScore{}, Lenient: rep.Lenient,
		Gold: rep.Gold, Database: rep.Database, Source: rep.Source, K: rep.K, Outcomes: map[string]int{},
		Warnings: rep.Warnings, Errors: rep.Errors}
	if model != "" {
		m := model
		mr.Model = &m
	}
	for _, o := range Outcomes {
		mr.Outcomes[o] = 0
	}
	perItem := map[string]*tally{}
	var order []string
	var latencies []float64
	abstained := 0
	for i := range rep.Records {
		rec := &rep.Records[i]
		if rec.Model != model {
			continue
		}
		mr.Items = append(mr.Items, itemScore(rec))
		mr.Questions++
		mr.Outcomes[rec.Outcome]++
		d := mr.ByDifficulty[rec.Difficulty]
		d.Questions++
		if rec.Match {
			mr.Matches++
			d.Matches++
			if len(rec.Relaxed) > 0 {
				mr.RelaxedMatches++
			}
		}
		mr.ByDifficulty[rec.Difficulty] = d
		unanswerable := false
		if it := rep.goldItem(rec); it != nil {
			unanswerable = !it.Answerable()
		}
		if unanswerable {
			mr.Unanswerable++
			if rec.Outcome == OutcomeAbstained {
				abstained++
			}
		} else if rec.Outcome == OutcomeAbstained {
			mr.FalseRefusals++
		}
		mr.Repairs += rec.Repairs()
		if rec.Repairs() > 0 {
			mr.RepairedItems++
		}
		mr.TokensTotal += rec.Tokens
		if rec.LatencyS != nil {
			latencies = append(latencies, *rec.LatencyS)
		}
		t := perItem[rec.ID]
		if t == nil {
			t = &tally{}
			perItem[rec.ID] = t
			order = append(order, rec.ID)
		}
		t.n++
		if rec.Match {
			t.c++
		}
	}
	if mr.Questions > 0 {
		mr.ExecutionAccuracy = round4(float64(mr.Matches) / float64(mr.Questions))
	}
	for k, d := range mr.ByDifficulty {
		if d.Questions > 0 {
			d.ExecutionAccuracy = round4(float64(d.Matches) / float64(d.Questions))
		}
		mr.ByDifficulty[k] = d
	}
	if mr.Unanswerable > 0 {
		mr.Abstention = ptr(round4(float64(abstained) / float64(mr.Unanswerable)))
	}
	if rep.K >= 2 {
		mr.PassAtK, mr.PassHatK = passRates(order, perItem, rep.K)
	}
	if len(latencies) > 0 {
		mr.LatencyP50S = ptr(Percentile(latencies, 50))
		mr.LatencyP95S = ptr(Percentile(latencies, 95))
	}
	return mr
}

// itemScore is a record as its report lists it.
func itemScore(rec *Record) ItemScore {
	s := ItemScore{ID: rec.ID, Match: rec.Match, Outcome: rec.Outcome, Reason: rec.Reason, LatencyS: rec.LatencyS,
		Attempts: len(rec.Attempts), Repairs: rec.Repairs(), Tokens: rec.Tokens, Try: rec.Try, Difficulty: rec.Difficulty,
		Relaxed: rec.Relaxed}
	if s.Relaxed == nil {
		s.Relaxed = []string{}
	}
	return s
}

// tally counts one item's tries (n) and matches (c).
type tally struct{ n, c int }

// passRates are the mean pass@k and pass^k over the items (in order) tried
// at least k times; nil when none was.
func passRates(order []string, perItem map[string]*tally, k int) (passAtK, passHatK *float64) {
	var at, hat float64
	n := 0
	for _, id := range order {
		t := perItem[id]
		if t.n < k {
			continue
		}
		at += PassAtK(t.n, t.c, k)
		hat += PassHatK(t.n, t.c, k)
		n++
	}
	if n == 0 {
		return nil, nil
	}
	return ptr(round4(at / float64(n))), ptr(round4(hat / float64(n)))
}

// goldItem returns the gold item of a record.
func (rep *Report) goldItem(rec *Record) *Item {
	if rep.gold == nil {
		return nil
	}
	return rep.gold.Item(rec.ID)
}

// PassAtK is the unbiased estimator of pass@k of Chen et al. (2021, the
// Codex paper): the chance that at least one of k answers drawn from n,
// of which c are right, is right: 1 − C(n−c, k) / C(n, k). With n = k, as
// querent eval --k runs, it is simply whether any of the k tries matched.
func PassAtK(n, c, k int) float64 {
	if n-c < k {
		return 1
	}
	p := 1.0
	for i := n - c + 1; i <= n; i++ {
		p *= 1 - float64(k)/float64(i)
	}
	return 1 - p
}

// PassHatK is pass^k (Yao et al., τ-bench, 2024): the chance that k
// answers drawn from n, of which c are right, are all right:
// C(c, k) / C(n, k). With n = k it is whether every try matched.
func PassHatK(n, c, k int) float64 {
	if c < k {
		return 0
	}
	p := 1.0
	for i := 0; i < k; i++ {
		p *= float64(c-i) / float64(n-i)
	}
	return p
}

// Percentile is the nearest-rank percentile p (0–100) of xs.
func Percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	sort.Float64s(s)
	i := int(math.Ceil(p/100*float64(len(s)))) - 1
	return s[min(max(i, 0), len(s)-1)]
}

// JSON is what `querent eval --format json` prints and report.json holds:
// the design.md document for one model; for several models, an object
// {"models": {"name": document, …}, "errors": […]} in the order they ran.
func (rep *Report) JSON() ([]byte, error) {
	if len(rep.Models) == 1 {
		return marshalIndent(rep.Models[0], "")
	}
	var b bytes.Buffer
	b.WriteString("{\n  \"models\": {")
	for i, m := range rep.Models {
		if i > 0 {
			b.WriteByte(',')
		}
		name := ""
		if m.Model != nil {
			name = *m.Model
		}
		k, _ := json.Marshal(name)
		doc, err := marshalIndent(m, "    ")
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "\n    %s: %s", k, doc)
	}
	errs, _ := marshalIndent(rep.Errors, "  ")
	fmt.Fprintf(&b, "\n  },\n  \"errors\": %s\n}", errs)
	return b.Bytes(), nil
}

// marshalIndent is json.MarshalIndent without HTML escaping (SQL has < and >).
func marshalIndent(v any, prefix string) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent(prefix, "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// WriteDir writes records.jsonl, report.json and report.md into dir
// (created if need be), each atomically.
func (rep *Report) WriteDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("cannot create %s: %v", dir, err)
	}
	var recs bytes.Buffer
	if err := WriteRecords(&recs, rep.Records); err != nil {
		return err
	}
	js, err := rep.JSON()
	if err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		data []byte
	}{
		{"records.jsonl", recs.Bytes()},
		{"report.json", append(js, '\n')},
		{"report.md", []byte(rep.Markdown())},
	} {
		if err := writeAtomic(filepath.Join(dir, f.name), f.data); err != nil {
			return err
		}
	}
	return nil
}

// writeAtomic writes a file through a temporary file, fsync and rename.
func writeAtomic(path string, data []byte) error {
	if err := files.WriteFileAtomic(path, data, 0o644); err != nil {
		return fmt.Errorf("cannot write %s: %v", path, err)
	}
	return nil
}

// Markdown is report.md: the summary, accuracy by difficulty, abstention,
// pass@k, repairs, latency and tokens; a side-by-side table when several
// models ran; and every item.
func (rep *Report) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Querent evaluation: %s on %s\n\n", rep.Gold, rep.Database)
	rule := "strict (Spider test-suite execution match)"
	if rep.Lenient {
		rule = "lenient (numeric text equals numbers, floats to 1e-6 relative)"
	}
	fmt.Fprintf(&b, "- Run: %s, %s (%s)\n", rep.Started.Format("2006-01-02 15:04 MST"), rep.Source, rep.Elapsed.Round(time.Millisecond))
	fmt.Fprintf(&b, "- Gold set: %s (%s)\n", rep.Gold, rep.GoldSource)
	fmt.Fprintf(&b, "- Match rule: %s\n", rule)
	if rep.K > 1 {
		fmt.Fprintf(&b, "- Tries per question: %d\n", rep.K)
	}
	for _, e := range rep.Errors {
		fmt.Fprintf(&b, "- **The run stopped early** (%s): %s\n", e.Type, mdCell(e.Message))
	}
	for _, w := range rep.Warnings {
		fmt.Fprintf(&b, "- Warning: %s\n", mdCell(w))
	}
	b.WriteString("\n")
	if len(rep.Models) > 1 {
		b.WriteString("## Models side by side\n\n")
		b.WriteString("| model | accuracy | easy | medium | hard | abstention | false refusals | pass@k | pass^k | repairs | p50 latency | p95 latency | tokens |\n")
		b.WriteString("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
		for _, m := range rep.Models {
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %d | %s | %s | %d | %s | %s | %d |\n", mdCell(m.name()),
				pct(m.ExecutionAccuracy), m.diff("easy"), m.diff("medium"), m.diff("hard"), optPct(m.Abstention), m.FalseRefusals,
				optPct(m.PassAtK), optPct(m.PassHatK), m.Repairs, optSecs(m.LatencyP50S), optSecs(m.LatencyP95S), m.TokensTotal)
		}
		b.WriteString("\n")
	}
	for _, m := range rep.Models {
		level := "##"
		if len(rep.Models) > 1 {
			fmt.Fprintf(&b, "## %s\n\n", mdCell(m.name()))
			level = "###"
		}
		fmt.Fprintf(&b, "%s Summary\n\n| metric | value |\n|---|---|\n", level)
		fmt.Fprintf(&b, "| execution accuracy | %s (%d of %d) |\n", pct(m.ExecutionAccuracy), m.Matches, m.Questions)
		for _, d := range Difficulties {
			if _, ok := m.ByDifficulty[d]; ok {
				fmt.Fprintf(&b, "| %s | %s |\n", d, m.diff(d))
			}
		}
		abst := "no unanswerable items"
		if m.Abstention != nil {
			abst = fmt.Sprintf("%s of %d unanswerable", pct(*m.Abstention), m.Unanswerable)
		}
		fmt.Fprintf(&b, "| abstention | %s |\n", abst)
		fmt.Fprintf(&b, "| false refusals | %d |\n", m.FalseRefusals)
		if m.PassAtK != nil {
			fmt.Fprintf(&b, "| pass@%d | %s |\n| pass^%d | %s |\n", m.K, pct(*m.PassAtK), m.K, pct(*m.PassHatK))
		}
		if m.Model != nil {
			fmt.Fprintf(&b, "| repairs used | %d (on %s) |\n", m.Repairs, plural(m.RepairedItems, "question"))
			fmt.Fprintf(&b, "| latency p50 / p95 | %s / %s |\n", optSecs(m.LatencyP50S), optSecs(m.LatencyP95S))
			fmt.Fprintf(&b, "| tokens | %d |\n", m.TokensTotal)
		}
		if m.RelaxedMatches > 0 {
			fmt.Fprintf(&b, "| matches that needed ranking, extra_columns or lenient | %d |\n", m.RelaxedMatches)
		}
		var outs []string
		for _, o := range Outcomes {
			outs = append(outs, fmt.Sprintf("%s %d", o, m.Outcomes[o]))
		}
		fmt.Fprintf(&b, "| outcomes | %s |\n\n", strings.Join(outs, ", "))
		fmt.Fprintf(&b, "%s Items\n\n| id | try | difficulty | outcome | attempts | latency | reason |\n|---|---|---|---|---|---|---|\n", level)
		for _, it := range m.Items {
			reason := it.Reason
			if len(it.Relaxed) > 0 {
				reason += " [" + strings.Join(it.Relaxed, ", ") + "]"
			}
			fmt.Fprintf(&b, "| %s | %d | %s | %s | %d | %s | %s |\n", mdCell(it.ID), it.Try, it.Difficulty, it.Outcome, it.Attempts,
				optSecs(it.LatencyS), mdCell(reason))
		}
		b.WriteString("\n")
	}
	return b.String()
}

func (m *ModelReport) name() string {
	if m.Model == nil {
		return "predictions"
	}
	return *m.Model
}

func (m *ModelReport) diff(d string) string {
	s, ok := m.ByDifficulty[d]
	if !ok {
		return "–"
	}
	return fmt.Sprintf("%s (%d/%d)", pct(s.ExecutionAccuracy), s.Matches, s.Questions)
}

func pct(x float64) string { return fmt.Sprintf("%.1f%%", x*100) }

func optPct(x *float64) string {
	if x == nil {
		return "–"
	}
	return pct(*x)
}

func optSecs(x *float64) string {
	if x == nil {
		return "–"
	}
	return fmt.Sprintf("%.2f s", *x)
}

// mdCell makes s safe inside a Markdown table cell.
func mdCell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "\r", " ").Replace(s)
}
