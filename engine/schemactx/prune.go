package schemactx

// Pruning: the tables a question needs, ranked and then chosen within the
// budget together with the tables that join them.

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"

	"querent/engine"
	"querent/engine/text"
)

// neighbourBoost is the share of the best FK neighbour's lexical score a
// table gets: a table that joins relevant tables is likelier to be needed.
const neighbourBoost = 0.3

// PruneSchema chooses the tables to show the model for a question, within
// budgetTokens (DefaultBudgetTokens when ≤ 0) as EstimateTokens counts
// them. Internal tables are never shown. When every user table fits
// rendered whole, all are returned and Pruned is false; the ranking is still
// computed for Ranking.
//
// Otherwise tables are ranked by BM25 over each table's name, column names,
// original header names and sampled and distinct text values (names split at
// camelCase and snake_case, lowercased, accents removed, plurals lightly
// stemmed so that "invoices" ~ "invoice"; English stop words dropped; a few
// English words of analytics are expanded at a lower weight: "sales" also
// looks for invoice, order, total, amount…, "songs" for track). A table gets
// a share of its best foreign-key neighbour's score. With a reranker
// (embeddings), the top ~3×K lexical candidates (K: how many tables fit) are
// re-ranked by an equal mix of the normalised lexical score and the
// normalised similarity; a reranker error leaves the lexical order
// (RerankErr says why).
//
// The budget is then filled in rank order: each table comes with the tables
// on a shortest foreign-key path (both directions) to every table already
// chosen, so that the chosen tables can be joined; a group that does not fit
// rendered whole is tried without sample rows, then skipped for the next
// one. The top table is always included: without samples, or bare (DDL and
// row count only) when even that is over budget, in which case Tokens
// exceeds the budget. The result is deterministic for the same schema,
// question, budget and reranker scores.
//
// Ranking is lexical, so a question that names a value rather than its table
// ("songs by acdc") does not find the table (Artist); a caller with value
// hints should append their tables' names to the question it passes here.
func PruneSchema(ctx context.Context, s *engine.Schema, question string, budgetTokens int, rerank Reranker) Context {
	return PruneSchemaAs(ctx, s, question, budgetTokens, rerank, FormDDL)
}

// PruneSchemaAs is PruneSchema with the tables rendered in form (FormDDL
// or FormMSchema; "" is FormDDL): the budget counts that form's renders.
func PruneSchemaAs(ctx context.Context, s *engine.Schema, question string, budgetTokens int, rerank Reranker, form string) Context {
	if budgetTokens <= 0 {
		budgetTokens = DefaultBudgetTokens
	}
	tables := userTables(s)
	n := len(tables)
	var out Context
	if n == 0 {
		return out
	}
	full := make([]string, n)
	for i, t := range tables {
		full[i] = RenderTable(t, RenderOptions{Dialect: s.Dialect, Form: form})
	}
	out.FullTokens = joinedTokens(full)

	g := buildGraph(tables)
	score := relevance(tables, g, question)
	order := rankOrder(score, g)

	pruned := out.FullTokens > budgetTokens
	if pruned && rerank != nil {
		order, score, out.RerankErr = rerankTables(ctx, tables, full, question, order, score, budgetTokens, rerank)
	}
	out.Ranking = make([]string, n)
	for k, i := range order {
		out.Ranking[k] = fmt.Sprintf("%s %.2f", tables[i].Name, score[i])
	}

	if !pruned {
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		out.show(tables, topoOrder(idx, g, func(i int) int { return i }), full)
		return out
	}

	out.Pruned = true
	f := &filler{
		tables:      tables,
		g:           g,
		full:        full,
		lean:        make([]string, n),
		noSamples:   RenderOptions{SampleRows: -1, Dialect: s.Dialect, Form: form}.withDefaults(),
		budgetBytes: budgetTokens * 4,
		text:        make([]string, n),
		chosen:      []int{},
		isChosen:    make([]bool, n),
	}
	f.fill(order)
	rankPos := make([]int, n)
	for k, i := range order {
		rankPos[i] = k
	}
	out.show(tables, topoOrder(f.chosen, g, func(i int) int { return rankPos[i] }), f.text)
	return out
}

// userTables returns the schema's tables but the internal ones.
func userTables(s *engine.Schema) []*engine.Table {
	var tables []*engine.Table
	if s != nil {
		for _, t := range s.Tables {
			if t != nil && !t.Internal {
				tables = append(tables, t)
			}
		}
	}
	return tables
}

// joinedTokens is EstimateTokens of the renders joined by blank lines,
// without joining them.
func joinedTokens(renders []string) int {
	n := 2 * (len(renders) - 1)
	for _, r := range renders {
		n += len(r)
	}
	return (n + 3) / 4
}

// relevance scores each table for question: its lexical score plus a share
// of its best foreign-key neighbour's.
func relevance(tables []*engine.Table, g *graph, question string) []float64 {
	lex := lexicalScores(tables, question)
	score := make([]float64, len(tables))
	for i := range tables {
		best := 0.0
		for _, j := range g.adj[i] {
			best = math.Max(best, lex[j])
		}
		score[i] = lex[i] + neighbourBoost*best
	}
	return score
}

// show sets the tables shown, in the order sel, and their text; text[i] is
// the render of tables[i].
func (c *Context) show(tables []*engine.Table, sel []int, text []string) {
	texts := make([]string, len(sel))
	for k, i := range sel {
		c.Tables = append(c.Tables, tables[i])
		texts[k] = text[i]
	}
	c.Text = strings.Join(texts, "\n\n")
	c.Tokens = EstimateTokens(c.Text)
}

// The renders of a table a pruned schema tries, richest first.
const (
	levelWhole = iota // with sample rows
	levelLean         // without sample rows
	levelBare         // DDL and row count only: the top table when nothing else fits
)

// filler fills a pruned schema's budget in rank order (PruneSchema).
type filler struct {
	tables      []*engine.Table
	g           *graph
	full        []string // renders whole
	lean        []string // renders without samples, made when needed
	noSamples   RenderOptions
	budgetBytes int
	text        []string // chosen tables' renders
	chosen      []int
	isChosen    []bool
	used        int // bytes of the chosen renders and their separators
}

// fill chooses tables in order until nothing more can fit.
func (f *filler) fill(order []int) {
	for k, i := range order {
		if f.isChosen[i] {
			continue
		}
		f.add(i, k == 0)
		if f.used+2 > f.budgetBytes-16 {
			break // nothing more can fit
		}
	}
}

// add chooses table i and the tables on its paths to those already chosen,
// at the richest level at which the group fits, or not at all; the top
// table is chosen whatever its size, bare at worst.
func (f *filler) add(i int, top bool) {
	group := []int{i}
	if len(f.chosen) > 0 {
		group = append(group, f.g.pathsTo(i, f.chosen, f.isChosen)...)
	}
	levels := []int{levelWhole, levelLean}
	if top {
		levels = []int{levelWhole, levelLean, levelBare}
	}
	for li, level := range levels {
		rs, add := f.renderGroup(group, level)
		if f.used+add > f.budgetBytes && !(top && li == len(levels)-1) {
			continue
		}
		for gi, j := range group {
			f.text[j] = rs[gi]
			f.isChosen[j] = true
			f.chosen = append(f.chosen, j)
		}
		f.used += add
		return
	}
}

// renderGroup renders the group's tables at level and counts the bytes
// they would add, with the blank line before each.
func (f *filler) renderGroup(group []int, level int) ([]string, int) {
	add := 0
	rs := make([]string, len(group))
	for gi, j := range group {
		rs[gi] = f.render(j, level)
		add += len(rs[gi])
		if len(f.chosen)+gi > 0 {
			add += 2
		}
	}
	return rs, add
}

// render renders table i at level.
func (f *filler) render(i, level int) string {
	switch level {
	case levelWhole:
		return f.full[i]
	case levelLean:
		if f.lean[i] == "" {
			f.lean[i] = render(f.tables[i], f.noSamples, false)
		}
		return f.lean[i]
	}
	return render(f.tables[i], f.noSamples, true)
}

// rankOrder orders tables by score, ties broken by FK degree (a hub is
// likelier to be needed) and then schema order.
func rankOrder(score []float64, g *graph) []int {
	order := make([]int, len(score))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		i, j := order[a], order[b]
		if score[i] != score[j] {
			return score[i] > score[j]
		}
		if len(g.adj[i]) != len(g.adj[j]) {
			return len(g.adj[i]) > len(g.adj[j])
		}
		return i < j
	})
	return order
}

// rerankTables re-ranks the top lexical candidates with the reranker's
// similarities, mixing both normalised scores equally.
func rerankTables(ctx context.Context, tables []*engine.Table, full []string, question string, order []int, score []float64, budgetTokens int, rerank Reranker) ([]int, []float64, error) {
	// K: how many tables the lexical order fits in the budget.
	k, used := 0, 0
	for _, i := range order {
		if used+len(full[i])+2 > budgetTokens*4 && k > 0 {
			break
		}
		used += len(full[i]) + 2
		k++
	}
	m := 3 * k
	if m < 3 {
		m = 3
	}
	if m > len(order) {
		m = len(order)
	}
	cand := order[:m]
	docs := make([]string, m)
	for c, i := range cand {
		docs[c] = embedText(tables[i])
	}
	sims, err := rerank(ctx, question, docs)
	if err == nil && len(sims) != m {
		err = fmt.Errorf("the reranker returned %d scores for %d tables", len(sims), m)
	}
	if err != nil {
		return order, score, err
	}
	maxLex := 0.0
	for _, i := range cand {
		maxLex = math.Max(maxLex, score[i])
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range sims {
		if !math.IsNaN(s) {
			lo, hi = math.Min(lo, s), math.Max(hi, s)
		}
	}
	newScore := append([]float64(nil), score...)
	for c, i := range cand {
		l := 0.0
		if maxLex > 0 {
			l = score[i] / maxLex
		}
		e := 0.0
		if hi > lo && !math.IsNaN(sims[c]) {
			e = (sims[c] - lo) / (hi - lo)
		}
		newScore[i] = 0.5*l + 0.5*e
	}
	newOrder := append([]int(nil), cand...)
	sort.SliceStable(newOrder, func(a, b int) bool { return newScore[newOrder[a]] > newScore[newOrder[b]] })
	// The other tables keep their lexical order after the candidates, with
	// scores on the same scale, below every candidate's.
	for _, i := range order[m:] {
		newScore[i] = 0
		if maxLex > 0 {
			newScore[i] = 0.5 * score[i] / maxLex
		}
	}
	return append(newOrder, order[m:]...), newScore, nil
}

// embedText is the text of a table embedded for reranking: its name and
// its columns' names, words split.
func embedText(t *engine.Table) string {
	var b strings.Builder
	b.WriteString("table ")
	b.WriteString(strings.Join(text.IdentWords(t.Name), " "))
	b.WriteString(" (")
	b.WriteString(t.Name)
	b.WriteString("): columns ")
	for i, c := range t.Columns {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strings.Join(text.IdentWords(c.Name), " "))
		if c.OriginalName != nil && *c.OriginalName != "" && *c.OriginalName != c.Name {
			b.WriteString(" (" + Clean(*c.OriginalName) + ")")
		}
	}
	return b.String()
}
