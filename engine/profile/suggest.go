package profile

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"querent/engine"
	"querent/engine/sqltext"
)

// Suggestion is a question with its SQL, already run: only those whose SQL
// passed the guard and returned rows are kept.
type Suggestion struct {
	Question string `json:"question"`
	SQL      string `json:"sql"`
	RowCount int    `json:"row_count"`
	// Kind is the template: count_by, over_time, top_join, share, outliers.
	Kind string `json:"kind"`
	// Columns and Rows are the kept result (at most SuggestRows rows), so
	// that a click shows the answer at once.
	Columns []engine.Column `json:"columns"`
	Rows    engine.Rows     `json:"rows"`
}

// SuggestRows caps the rows a suggestion keeps and runs.
const SuggestRows = 100

// questions are the templates' sentences in English, French and Chinese:
// %[1]s is the table, %[2]s the category or measure, %[3]s the other.
var questions = map[string]map[string]string{
	"count_by": {
		"en": "How many %[1]s rows are there per %[2]s?",
		"fr": "Combien de lignes de %[1]s y a-t-il par %[2]s ?",
		"zh": "每个%[2]s有多少条%[1]s记录？",
	},
	"over_time": {
		"en": "What is the total %[2]s of %[1]s per month (%[3]s)?",
		"fr": "Quel est le total de %[2]s de %[1]s par mois (%[3]s) ?",
		"zh": "%[1]s的%[2]s每月（按%[3]s）合计是多少？",
	},
	"count_over_time": {
		"en": "How many %[1]s rows are there per month (%[3]s)?",
		"fr": "Combien de lignes de %[1]s y a-t-il par mois (%[3]s) ?",
		"zh": "每月（按%[3]s）有多少条%[1]s记录？",
	},
	"top_join": {
		"en": "What are the top 10 %[3]s by total %[2]s of %[1]s?",
		"fr": "Quels sont les 10 premiers %[3]s selon le total de %[2]s de %[1]s ?",
		"zh": "按%[1]s的%[2]s合计排名前10的%[3]s是哪些？",
	},
	"top_join_count": {
		"en": "What are the top 10 %[3]s by number of %[1]s rows?",
		"fr": "Quels sont les 10 premiers %[3]s selon le nombre de lignes de %[1]s ?",
		"zh": "按%[1]s记录数排名前10的%[3]s是哪些？",
	},
	"share": {
		"en": "What share of %[1]s rows does each %[2]s hold?",
		"fr": "Quelle part des lignes de %[1]s chaque %[2]s représente-t-il ?",
		"zh": "每个%[2]s占%[1]s记录的比例是多少？",
	},
	"outliers": {
		"en": "Which %[1]s rows have an unusual %[2]s?",
		"fr": "Quelles lignes de %[1]s ont une valeur de %[2]s inhabituelle ?",
		"zh": "哪些%[1]s记录的%[2]s异常？",
	},
	"average_by": {
		"en": "What is the average %[3]s of %[1]s per %[2]s?",
		"fr": "Quelle est la moyenne de %[3]s de %[1]s par %[2]s ?",
		"zh": "每个%[2]s的%[1]s平均%[3]s是多少？",
	},
}

// Languages are the languages Suggest speaks.
var Languages = []string{"en", "fr", "zh"}

type candidate struct {
	kind, question, sql string
}

// Suggest writes 5 to 10 questions from the profile (a count by a
// category, a measure over time by month, a top 10 through a join, a
// share, the outliers, an average by a category), in language (en, fr or
// zh; another is English), runs each one's SQL through db.Run (the guard,
// SuggestRows rows, timeout each) and keeps those that return rows.
func Suggest(ctx context.Context, db engine.Database, p *Database, language string, timeout time.Duration) ([]Suggestion, error) {
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	if _, ok := questions["count_by"][language]; !ok {
		language = "en"
	}
	out := []Suggestion{}
	for _, c := range p.candidates(language) {
		if len(out) >= 10 {
			break
		}
		if err := ctx.Err(); err != nil {
			return nil, engine.AsError(err)
		}
		res, err := db.Run(ctx, c.sql, engine.RunOptions{MaxRows: SuggestRows, Timeout: timeout})
		if err != nil {
			if ctx.Err() != nil {
				return nil, engine.AsError(ctx.Err())
			}
			continue
		}
		if len(res.Rows) == 0 {
			continue
		}
		names := make([]string, len(res.Columns))
		for i, col := range res.Columns {
			names[i] = col.Name
		}
		out = append(out, Suggestion{Question: c.question, SQL: c.sql, RowCount: len(res.Rows), Kind: c.kind,
			Columns: res.Columns, Rows: engine.Rows{Columns: names, Values: res.Rows}})
	}
	return out, nil
}

func say(kind, lang string, a ...any) string {
	return fmt.Sprintf(questions[kind][lang], a...)
}

// mainTables is the tables, most rows first (views last).
func (p *Database) mainTables() []*Table {
	ts := make([]*Table, 0, len(p.Tables))
	for _, t := range p.Tables {
		if t.Rows > 0 && len(t.Columns) > 0 {
			ts = append(ts, t)
		}
	}
	sort.SliceStable(ts, func(i, j int) bool {
		if (ts[i].Kind == "view") != (ts[j].Kind == "view") {
			return ts[j].Kind == "view"
		}
		return ts[i].Rows > ts[j].Rows
	})
	return ts
}

// category is t's best column to group by: text with 2 to 50 distinct
// values, not almost one per row; nil when none.
func category(t *Table, skip string) *Column {
	var best *Column
	for _, c := range t.Columns {
		if c.Observed != "text" || c.Distinct < 2 || c.Distinct > 50 || c.Distinct*2 > t.ProfiledRows || strings.EqualFold(c.Name, skip) {
			continue
		}
		if best == nil || c.Distinct < best.Distinct && c.Distinct >= 3 {
			best = c
		}
	}
	return best
}

// measure is t's best column to add up: a real column, else an integer
// one that is no key and not a code; nil when none.
func measure(t *Table) *Column {
	for _, want := range []string{"real", "integer"} {
		for _, c := range t.Columns {
			if c.Observed != want || isKeyLike(t, c) || c.Distinct < 3 {
				continue
			}
			return c
		}
	}
	return nil
}

func isKeyLike(t *Table, c *Column) bool {
	n := squash(c.Name)
	if strings.HasSuffix(n, "id") || strings.HasSuffix(n, "key") || strings.HasSuffix(n, "code") {
		return true
	}
	for _, k := range t.PrimaryKey {
		if strings.EqualFold(k, c.Name) {
			return true
		}
	}
	_, fk := t.decl[strings.ToLower(c.Name)]
	return fk
}

func dateColumn(t *Table) *Column {
	for _, c := range t.Columns {
		if c.Observed == "date" {
			return c
		}
	}
	return nil
}

// label is t's column that names its rows: the text column with the most
// distinct values.
func label(t *Table) *Column {
	var best *Column
	for _, c := range t.Columns {
		if c.Observed == "text" && (best == nil || c.Distinct > best.Distinct) {
			best = c
		}
	}
	return best
}

func (p *Database) monthOf(col string) string {
	if p.dialect == sqltext.PostgreSQL {
		return "to_char(" + col + "::date, 'YYYY-MM')"
	}
	return "strftime('%Y-%m', " + col + ")"
}

// candidates is the templates filled from the profile, in the order they
// are tried: one of each kind on the main tables first, then more.
func (p *Database) candidates(lang string) []candidate {
	var first, more []candidate
	add := func(c candidate, primary bool) {
		if primary {
			first = append(first, c)
		} else {
			more = append(more, c)
		}
	}
	q := sqltext.QuoteIdent
	seen := map[string]bool{}
	for i, t := range p.mainTables() {
		primary := i < 3
		from := sqltext.TableIdent(p.dialect, t.Name)
		cat := category(t, "")
		m := measure(t)
		if cat != nil {
			add(candidate{"count_by", say("count_by", lang, t.Name, cat.Name),
				fmt.Sprintf("SELECT %s, COUNT(*) AS n FROM %s GROUP BY %s ORDER BY n DESC LIMIT 20", q(cat.Name), from, q(cat.Name))}, primary)
			if !seen["share"] {
				seen["share"] = true
				add(candidate{"share", say("share", lang, t.Name, cat.Name),
					fmt.Sprintf("SELECT %s, ROUND(100.0 * COUNT(*) / (SELECT COUNT(*) FROM %s), 1) AS share_pct FROM %s GROUP BY %s ORDER BY share_pct DESC LIMIT 20",
						q(cat.Name), from, from, q(cat.Name))}, true)
			}
			if m != nil {
				add(candidate{"average_by", say("average_by", lang, t.Name, cat.Name, m.Name),
					fmt.Sprintf("SELECT %s, ROUND(AVG(%s), 2) AS average FROM %s GROUP BY %s ORDER BY average DESC LIMIT 20", q(cat.Name), q(m.Name), from, q(cat.Name))}, false)
			}
		}
		if d := dateColumn(t); d != nil {
			month := p.monthOf(q(d.Name))
			if m != nil {
				add(candidate{"over_time", say("over_time", lang, t.Name, m.Name, d.Name),
					fmt.Sprintf("SELECT %s AS month, ROUND(SUM(%s), 2) AS total FROM %s WHERE %s IS NOT NULL GROUP BY month ORDER BY month", month, q(m.Name), from, q(d.Name))}, primary)
			} else {
				add(candidate{"over_time", say("count_over_time", lang, t.Name, "", d.Name),
					fmt.Sprintf("SELECT %s AS month, COUNT(*) AS n FROM %s WHERE %s IS NOT NULL GROUP BY month ORDER BY month", month, from, q(d.Name))}, primary)
			}
		}
		if m != nil && m.stats != nil && len(m.stats.Outliers) > 0 && m.stats.P25 != nil && m.stats.P75 != nil {
			iqr := *m.stats.P75 - *m.stats.P25
			lo, hi := *m.stats.P25-1.5*iqr, *m.stats.P75+1.5*iqr
			add(candidate{"outliers", say("outliers", lang, t.Name, m.Name),
				fmt.Sprintf("SELECT * FROM %s WHERE %s < %s OR %s > %s ORDER BY %s DESC LIMIT 20",
					from, q(m.Name), engine.FormatFloat(lo), q(m.Name), engine.FormatFloat(hi), q(m.Name))}, primary)
		}
	}
	for _, r := range p.Relationships {
		ft, fc, ut, uc := r.ends[0], r.ends[1], r.ends[2], r.ends[3]
		if fc == "" || uc == "" {
			continue
		}
		t, u := p.Table(ft), p.Table(ut)
		if t == nil || u == nil || t == u || t.Rows <= 0 {
			continue
		}
		lab := label(u)
		if lab == nil {
			continue
		}
		m := measure(t)
		join := fmt.Sprintf("FROM %s AS t JOIN %s AS u ON t.%s = u.%s", sqltext.TableIdent(p.dialect, t.Name), sqltext.TableIdent(p.dialect, u.Name), q(fc), q(uc))
		primary := !seen["top_join"]
		seen["top_join"] = true
		if m != nil {
			add(candidate{"top_join", say("top_join", lang, t.Name, m.Name, u.Name),
				fmt.Sprintf("SELECT u.%s, ROUND(SUM(t.%s), 2) AS total %s GROUP BY u.%s ORDER BY total DESC LIMIT 10", q(lab.Name), q(m.Name), join, q(lab.Name))}, primary)
		} else {
			add(candidate{"top_join", say("top_join_count", lang, t.Name, "", u.Name),
				fmt.Sprintf("SELECT u.%s, COUNT(*) AS n %s GROUP BY u.%s ORDER BY n DESC LIMIT 10", q(lab.Name), join, q(lab.Name))}, primary)
		}
	}
	return append(first, more...)
}
