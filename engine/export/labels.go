package export

import (
	"sort"
	"strings"

	"querent/engine"
)

// labels are the words of a workbook that are Querent's own — sheet names,
// the Provenance sheet's field names, the Statistics sheet's header and
// notes, the chart's notes and titles — in one language. The data itself
// (values, column names, the question, the SQL) is never translated.
type labels struct {
	code string // the language's key in languages (a key of engine.ChartSuggestion.Reasons)

	Data, Provenance, Statistics, Chart string

	Field, Value                                             string
	Question, SQL, Model, Database, DatabaseSHA256           string
	ExportedAt, Rows, Capped, TablesUsed, QueryTime, Version string
	Warnings, Warning, None                                  string
	// CappedYes and CappedNo take the row limit (grouped thousands).
	CappedYes, CappedNo, No string
	// Facts name a server's provenance facts (engine.Origin), by their
	// English name.
	Facts map[string]string

	StatsHeader []string
	Kinds       map[string]string // engine.KindNumeric… as shown
	// MoreThan takes a count; SampleNote the sample's size and the values
	// seen; TopAmong the cap.
	MoreThan, SampleNote, TopAmong, NoMeanInf, NoMeanLarge string

	ChosenAutomatically string
	// HistogramInt takes the column, the lowest and highest value and the
	// source; HistogramBins the column, bins, width, lowest, highest and
	// source.
	HistogramInt, HistogramBins string
	// SourceAll takes the count of values; SourceQuery too (counted by a
	// second query); SourceSample the sample's size, the count and the
	// counting query's error.
	SourceAll, SourceQuery, SourceSample string
	HistHeader                           []string
	DistributionOf                       string

	// Explanation names the answer's explanation (Provenance); Guarded
	// the statement as the guard ran it, when it differs from the SQL.
	Explanation, Guarded string
	// View names the rows of a view (Options.Rows); ViewNote says what
	// they are.
	View, ViewNote string
	// WideNote takes the chart's title, the first rows' count and the
	// table's first row; Gaps says that every period is a row; SecondAxis
	// takes the numbers drawn against the right-hand axis; SeriesTitle the
	// number, the x column and the series column; TitleBy the numbers and
	// the x column.
	WideNote, Gaps, SecondAxis, SeriesTitle, TitleBy string
}

// Languages are the languages a workbook's own words can be in.
var languages = map[string]*labels{
	"en": {
		Data: "Data", Provenance: "Provenance", Statistics: "Statistics", Chart: "Chart",
		Field: "field", Value: "value",
		Question: "question", SQL: "SQL", Model: "model", Database: "database",
		DatabaseSHA256: "database sha256", ExportedAt: "exported at", Rows: "rows", Capped: "capped",
		TablesUsed: "tables used", QueryTime: "query time", Version: "Querent version",
		Warnings: "warnings", Warning: "warning", None: "none",
		CappedYes: "yes: stopped at the limit of %s rows (--max-rows)", CappedNo: "no (limit %s rows)", No: "no",
		Facts: map[string]string{"server": "server", "database name": "database name", "role": "role",
			"server version": "server version", "snapshot time": "snapshot time"},
		StatsHeader: []string{"column", "type", "kind", "count", "nulls", "distinct", "min", "max",
			"mean", "std", "p25", "p50", "p75", "top value", "top count", "note"},
		Kinds:    map[string]string{engine.KindNumeric: "numeric", engine.KindText: "text", engine.KindBlob: "blob", engine.KindMixed: "mixed", engine.KindEmpty: "empty"},
		MoreThan: "more than %s", SampleNote: "p25, p50 and p75 from a sample of %s of %s values",
		TopAmong: "top value among the first %s distinct values", NoMeanInf: "no mean or std: the column holds Infinity",
		NoMeanLarge:         "no mean or std: the values are too large",
		ChosenAutomatically: "Chosen automatically: ",
		HistogramInt:        "Histogram of %s: one bin per value from %s to %s; %s.",
		HistogramBins:       "Histogram of %s: %d equal bins of width %s from %s to %s; %s.",
		SourceAll:           "counts of all %s values", SourceQuery: "counts of all %s values, by a second query over the result",
		SourceSample:   "counts from a sample of %s of %s values (the counting query failed: %s)",
		HistHeader:     []string{"from", "to", "bin", "count"},
		DistributionOf: "Distribution of ",
		Explanation:    "explanation", Guarded: "SQL as run",
		View: "view", ViewNote: "the rows the grid showed, filtered and sorted, in its order (not the whole result)",
		WideNote:   "%s, from the first %s rows; the values drawn are in the table from row %d, one column per series.",
		Gaps:       " Every period from the first to the last has a row: a missing one is a gap.",
		SecondAxis: " (%s on the right-hand axis)", SeriesTitle: "%s by %s, one series per %s", TitleBy: "%s by %s",
	},
	"fr": {
		Data: "Données", Provenance: "Provenance", Statistics: "Statistiques", Chart: "Graphique",
		Field: "champ", Value: "valeur",
		Question: "question", SQL: "SQL", Model: "modèle", Database: "base de données",
		DatabaseSHA256: "sha256 de la base", ExportedAt: "exporté le", Rows: "lignes", Capped: "limité",
		TablesUsed: "tables utilisées", QueryTime: "durée de la requête", Version: "version de Querent",
		Warnings: "avertissements", Warning: "avertissement", None: "aucun",
		CappedYes: "oui : arrêté à la limite de %s lignes (--max-rows)", CappedNo: "non (limite de %s lignes)", No: "non",
		Facts: map[string]string{"server": "serveur", "database name": "nom de la base", "role": "rôle",
			"server version": "version du serveur", "snapshot time": "heure de l'instantané"},
		StatsHeader: []string{"colonne", "type", "nature", "nombre", "vides", "distinctes", "min", "max",
			"moyenne", "écart type", "p25", "p50", "p75", "valeur la plus fréquente", "occurrences", "note"},
		Kinds:    map[string]string{engine.KindNumeric: "numérique", engine.KindText: "texte", engine.KindBlob: "binaire", engine.KindMixed: "mixte", engine.KindEmpty: "vide"},
		MoreThan: "plus de %s", SampleNote: "p25, p50 et p75 sur un échantillon de %s valeurs sur %s",
		TopAmong: "valeur la plus fréquente parmi les %s premières valeurs distinctes", NoMeanInf: "ni moyenne ni écart type : la colonne contient Infinity",
		NoMeanLarge:         "ni moyenne ni écart type : les valeurs sont trop grandes",
		ChosenAutomatically: "Choisi automatiquement : ",
		HistogramInt:        "Histogramme de %s : une classe par valeur de %s à %s ; %s.",
		HistogramBins:       "Histogramme de %s : %d classes égales de largeur %s de %s à %s ; %s.",
		SourceAll:           "effectifs des %s valeurs", SourceQuery: "effectifs des %s valeurs, par une seconde requête sur le résultat",
		SourceSample:   "effectifs d'un échantillon de %s valeurs sur %s (la requête de comptage a échoué : %s)",
		HistHeader:     []string{"de", "à", "classe", "effectif"},
		DistributionOf: "Répartition de ",
		Explanation:    "explication", Guarded: "SQL tel qu'exécuté",
		View: "vue", ViewNote: "les lignes que montrait la grille, filtrées et triées, dans son ordre (pas tout le résultat)",
		WideNote:   "%s, d'après les %s premières lignes ; les valeurs tracées sont dans le tableau à partir de la ligne %d, une colonne par série.",
		Gaps:       " Chaque période de la première à la dernière a sa ligne : une période manquante est un trou.",
		SecondAxis: " (%s sur l'axe de droite)", SeriesTitle: "%s selon %s, une série par %s", TitleBy: "%s selon %s",
	},
	"zh": {
		Data: "数据", Provenance: "来源", Statistics: "统计", Chart: "图表",
		Field: "字段", Value: "值",
		Question: "问题", SQL: "SQL", Model: "模型", Database: "数据库",
		DatabaseSHA256: "数据库 sha256", ExportedAt: "导出时间", Rows: "行数", Capped: "是否截断",
		TablesUsed: "使用的表", QueryTime: "查询耗时", Version: "Querent 版本",
		Warnings: "警告", Warning: "警告", None: "无",
		CappedYes: "是：在 %s 行的上限处停止（--max-rows）", CappedNo: "否（上限 %s 行）", No: "否",
		Facts: map[string]string{"server": "服务器", "database name": "数据库名", "role": "角色",
			"server version": "服务器版本", "snapshot time": "快照时间"},
		StatsHeader: []string{"列", "类型", "种类", "数量", "空值", "不同值", "最小值", "最大值",
			"平均值", "标准差", "p25", "p50", "p75", "最常见的值", "出现次数", "备注"},
		Kinds:    map[string]string{engine.KindNumeric: "数值", engine.KindText: "文本", engine.KindBlob: "二进制", engine.KindMixed: "混合", engine.KindEmpty: "空"},
		MoreThan: "超过 %s", SampleNote: "p25、p50 和 p75 取自 %s 个值的样本（共 %s 个值）",
		TopAmong: "在前 %s 个不同值中最常见的值", NoMeanInf: "无平均值和标准差：该列含有 Infinity",
		NoMeanLarge:         "无平均值和标准差：数值过大",
		ChosenAutomatically: "自动选择：",
		HistogramInt:        "%s 的直方图：从 %s 到 %s，每个值一组；%s。",
		HistogramBins:       "%s 的直方图：%d 个等宽分组，宽度 %s，从 %s 到 %s；%s。",
		SourceAll:           "全部 %s 个值的计数", SourceQuery: "全部 %s 个值的计数（对结果的第二次查询）",
		SourceSample:   "%s 个值的样本计数（共 %s 个值；计数查询失败：%s）",
		HistHeader:     []string{"从", "到", "分组", "计数"},
		DistributionOf: "分布：",
		Explanation:    "解释", Guarded: "实际执行的 SQL",
		View: "视图", ViewNote: "表格显示的行：已筛选和排序，按其顺序（不是整个结果）",
		WideNote:   "%s，取自前 %s 行；绘制的数值在第 %d 行起的表格中，每个系列一列。",
		Gaps:       "从第一个到最后一个时期，每个时期一行：缺失的时期显示为空缺。",
		SecondAxis: "（%s 使用右侧坐标轴）", SeriesTitle: "%s 按 %s，每个 %s 一个系列", TitleBy: "%s 按 %s",
	},
}

func init() {
	for code, l := range languages {
		l.code = code
	}
}

// Languages lists the languages a workbook's own words can be in.
func Languages() []string {
	var out []string
	for k := range languages {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// labelsFor returns the words of lang ("" is English; a region such as
// fr-CA counts as its language).
func labelsFor(lang string) (*labels, error) {
	l := strings.ToLower(strings.TrimSpace(lang))
	if i := strings.IndexAny(l, "-_"); i > 0 {
		l = l[:i]
	}
	if l == "" {
		l = "en"
	}
	if w, ok := languages[l]; ok {
		return w, nil
	}
	return nil, engine.Errorf(engine.CodeUsage, "the language %q is not one of %s", lang, strings.Join(Languages(), ", ")).WithHint(
		"choose en (English), fr (French) or zh (Simplified Chinese); the data itself is never translated")
}

// fact names a server's provenance fact in the workbook's language.
func (l *labels) fact(name string) string {
	if s, ok := l.Facts[name]; ok {
		return s
	}
	return name
}

// kind names a column's kind in the workbook's language.
func (l *labels) kind(k string) string {
	if s, ok := l.Kinds[k]; ok {
		return s
	}
	return k
}
