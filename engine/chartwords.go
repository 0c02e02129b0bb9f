package engine

import (
	"fmt"
	"strings"
)

// ReasonLanguages are the languages a chart's reason is said in
// (ChartSuggestion.Reasons), and an import's reasons (ImportColumn.Reasons,
// SkippedColumn.Reasons, PlanColumn.SkipReasons): those of the page and of
// the exported workbook's own words.
var ReasonLanguages = []string{"en", "fr", "zh"}

// chartWhy is the reason for a chart choice in parts, so that each
// language says it with its own words and grammar; the column names are
// never translated.
type chartWhy struct {
	key     string   // which sentence (a key of chartWords' maps)
	names   []string // the columns it names first: the date, the category, every column…
	numbers []string // the numbers it names
	others  []string // a second group: the category a date repeats for, the columns that cannot be plotted
	count   int      // the rows, distinct values or columns it counts
}

// chartWords is one language's sentences. In a sentence {A} is the first
// group of names joined, {k} their count as a word, {N} the numbers with
// their count ("one number (Total)"), {O} the second group joined, {x} and
// {y} the first two numbers, {n} the count in digits, {w} the count as a
// word, {d} the note that only the first numbers are drawn.
type chartWords struct {
	sentences  map[string]string
	and        string // before the last name of a list
	andMore    string // before the names left out of a long list
	comma      string // between names
	more       string // the names left out of a long list: takes their count
	number     string // one number: takes the name
	numbers    string // several numbers: takes the count as a word, the names
	firstDrawn string // takes the count drawn as a word
	words      []string
}

var chartLanguages = map[string]*chartWords{
	"en": {
		sentences: map[string]string{
			"no_columns":        "the query returned no columns, so there is nothing to chart",
			"no_rows":           "the query returned no rows, so there is nothing to chart",
			"single_value":      "a single value ({A}) reads best as it is",
			"single_row":        "a single row of {w} columns reads best as a table",
			"too_many_columns":  "{w} columns are too many for one chart: a table shows them all",
			"repeats_per_date":  "{A} repeats for each {O}: a table shows every combination (a line needs one row per {A})",
			"line":              "one date-like column ({A}) and {N}: a line shows the trend over time{d}",
			"too_many_bars":     "{A} repeats across {n} rows, too many bars for one chart: a table shows them (group by {A} to compare totals)",
			"pie":               "one category ({A}) with {w} values, one row each, and one non-negative number ({x}): a pie shows each share of the whole",
			"bar":               "one category ({A}) and {N}: a bar compares them across {A}{d}",
			"few_for_scatter":   "two numbers ({x} and {y}) but only {n} rows: a table shows them better than a scatter",
			"scatter":           "two numbers ({x} and {y}) over {n} rows: a scatter shows how they relate",
			"few_for_histogram": "one number ({x}) over only {n} rows: a table shows them better than a histogram",
			"histogram":         "one number ({x}) over {n} rows: a histogram shows how its values are distributed",
			"only_text":         "only text with many different values ({A}): a table shows it best",
			"no_number":         "no number to plot among {A}: a table shows the values best",
			"categories":        "{k} categories ({A}) and {N}: a table shows each combination",
			"numbers_only":      "{N} with no category or date to plot them against: a table shows them best",
			"unplottable":       "{N} beside {O}, which cannot be grouped or plotted: a table shows the rows as they are",
			"no_simple_chart":   "no simple chart fits {A}: a table shows them best",
		},
		and: " and ", andMore: " and ", comma: ", ", more: "%d more",
		number: "one number (%s)", numbers: "%s numbers (%s)", firstDrawn: " (the first %s are drawn)",
		words: []string{"no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"},
	},
	"fr": {
		sentences: map[string]string{
			"no_columns":        "la requête n’a renvoyé aucune colonne : il n’y a rien à représenter",
			"no_rows":           "la requête n’a renvoyé aucune ligne : il n’y a rien à représenter",
			"single_value":      "une valeur seule ({A}) se lit mieux telle quelle",
			"single_row":        "une seule ligne de {w} colonnes se lit mieux en tableau",
			"too_many_columns":  "{w} colonnes, c’est trop pour un graphique : un tableau les montre toutes",
			"repeats_per_date":  "{A} se répète pour chaque {O} : un tableau montre chaque combinaison (une courbe demande une ligne par {A})",
			"line":              "une colonne de dates ({A}) et {N} : une courbe montre l’évolution dans le temps{d}",
			"too_many_bars":     "{A} se répète sur {n} lignes, trop de barres pour un graphique : un tableau les montre (groupez par {A} pour comparer les totaux)",
			"pie":               "une catégorie ({A}) à {w} valeurs, une ligne chacune, et un nombre positif ou nul ({x}) : un graphique en secteurs montre la part de chacune dans le total",
			"bar":               "une catégorie ({A}) et {N} : des barres les comparent selon {A}{d}",
			"few_for_scatter":   "deux nombres ({x} et {y}) mais seulement {n} lignes : un tableau les montre mieux qu’un nuage de points",
			"scatter":           "deux nombres ({x} et {y}) sur {n} lignes : un nuage de points montre leur relation",
			"few_for_histogram": "un nombre ({x}) sur seulement {n} lignes : un tableau les montre mieux qu’un histogramme",
			"histogram":         "un nombre ({x}) sur {n} lignes : un histogramme montre la répartition de ses valeurs",
			"only_text":         "seulement du texte aux valeurs très variées ({A}) : un tableau le montre le mieux",
			"no_number":         "aucun nombre à représenter parmi {A} : un tableau montre le mieux les valeurs",
			"categories":        "{k} catégories ({A}) et {N} : un tableau montre chaque combinaison",
			"numbers_only":      "{N} sans catégorie ni date en regard : un tableau les montre le mieux",
			"unplottable":       "{N} à côté de {O}, qu’on ne peut ni regrouper ni représenter : un tableau montre les lignes telles quelles",
			"no_simple_chart":   "aucun graphique simple ne convient à {A} : un tableau les montre le mieux",
		},
		and: " et ", andMore: " et ", comma: ", ", more: "%d autres",
		number: "un nombre (%s)", numbers: "%s nombres (%s)", firstDrawn: " (les %s premiers sont tracés)",
		words: []string{"aucun", "un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "dix"},
	},
	"zh": {
		sentences: map[string]string{
			"no_columns":        "查询没有返回任何列，没有可绘制的内容",
			"no_rows":           "查询没有返回任何行，没有可绘制的内容",
			"single_value":      "单个值（{A}）直接阅读最清楚",
			"single_row":        "一行 {n} 列的数据用表格阅读最清楚",
			"too_many_columns":  "{n} 列对一张图表来说太多：表格可以全部显示",
			"repeats_per_date":  "{A} 在每个 {O} 中重复出现：表格显示每种组合（折线图要求每个 {A} 只有一行）",
			"line":              "一个日期列（{A}）和 {N}：折线图显示随时间的变化趋势{d}",
			"too_many_bars":     "{A} 在 {n} 行中重复出现，柱子太多，一张图表放不下：表格可以显示它们（按 {A} 分组以比较总计）",
			"pie":               "一个分类（{A}）有 {n} 个值，每个值一行，还有一个非负数值（{x}）：饼图显示各部分占整体的比例",
			"bar":               "一个分类（{A}）和 {N}：柱状图按 {A} 比较它们{d}",
			"few_for_scatter":   "两个数值（{x} 和 {y}），但只有 {n} 行：表格比散点图更清楚",
			"scatter":           "两个数值（{x} 和 {y}），共 {n} 行：散点图显示它们之间的关系",
			"few_for_histogram": "一个数值（{x}），只有 {n} 行：表格比直方图更清楚",
			"histogram":         "一个数值（{x}），共 {n} 行：直方图显示其取值的分布",
			"only_text":         "只有取值各不相同的文本（{A}）：用表格显示最清楚",
			"no_number":         "{A} 中没有可绘制的数值：用表格显示这些值最清楚",
			"categories":        "{k} 个分类（{A}）和 {N}：表格显示每种组合",
			"numbers_only":      "{N}，没有可对照的分类或日期：用表格显示最清楚",
			"unplottable":       "{N}，以及无法分组或绘制的 {O}：表格按原样显示各行",
			"no_simple_chart":   "没有适合 {A} 的简单图表：用表格显示最清楚",
		},
		and: " 和 ", andMore: " 等", comma: "、", more: "另外 %d 列",
		number: "1 个数值（%s）", numbers: "%s 个数值（%s）", firstDrawn: "（只绘制前 %s 个）",
		words: nil, // digits: "3 个数值"
	},
}

// say is the reason in lang ("en" when lang is not one of ReasonLanguages).
func (w chartWhy) say(lang string) string {
	l := chartLanguages[lang]
	if l == nil {
		l = chartLanguages["en"]
	}
	at := func(s []string, i int) string {
		if i < len(s) {
			return s[i]
		}
		return ""
	}
	r := strings.NewReplacer(
		"{A}", l.join(w.names),
		"{k}", l.word(len(w.names)),
		"{N}", l.numberPhrase(w.numbers),
		"{O}", l.join(w.others),
		"{x}", at(w.numbers, 0),
		"{y}", at(w.numbers, 1),
		"{n}", fmt.Sprint(w.count),
		"{w}", l.word(w.count),
		"{d}", l.drawn(w.numbers),
	)
	return r.Replace(l.sentences[w.key])
}

// reasons says w in every language of ReasonLanguages.
func (w chartWhy) reasons() map[string]string {
	out := make(map[string]string, len(ReasonLanguages))
	for _, lang := range ReasonLanguages {
		out[lang] = w.say(lang)
	}
	return out
}

// join says "A", "A and B", "A, B and C", or "A, B, C and 3 more".
func (l *chartWords) join(ns []string) string {
	if len(ns) > chartReasonMaxNames {
		shown := ns[:chartReasonMaxNames-1]
		return strings.Join(shown, l.comma) + l.andMore + fmt.Sprintf(l.more, len(ns)-len(shown))
	}
	switch len(ns) {
	case 0:
		return ""
	case 1:
		return ns[0]
	}
	return strings.Join(ns[:len(ns)-1], l.comma) + l.and + ns[len(ns)-1]
}

// word says a small count as a word, a larger one in digits.
func (l *chartWords) word(n int) string {
	if 0 <= n && n < len(l.words) {
		return l.words[n]
	}
	return fmt.Sprint(n)
}

// numberPhrase says "one number (Total)" or "two numbers (A and B)".
func (l *chartWords) numberPhrase(ns []string) string {
	switch len(ns) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf(l.number, ns[0])
	}
	return fmt.Sprintf(l.numbers, l.word(len(ns)), l.join(ns))
}

// drawn notes the numbers left out of a line or bar chart.
func (l *chartWords) drawn(ns []string) string {
	if len(ns) <= maxSeries {
		return ""
	}
	return fmt.Sprintf(l.firstDrawn, l.word(maxSeries))
}
