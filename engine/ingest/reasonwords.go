package ingest

import (
	"strconv"
	"strings"

	"querent/engine"
	"querent/engine/imports"
)

// A reason (why a column got its type, why it is skipped) is built in
// parts, so that each language of engine.ReasonLanguages says it with its
// own words: a sentence is a key of importWords' maps and the parts it
// cites (counts, lines, values, nested sentences). What comes from the
// data (values, currency signs, date format patterns, type names) is never
// translated. English says exactly what the reports always said.

// part is a piece of a reason.
type part interface {
	in(l *importWords, rows bool) string
}

// sentence is a sentence of the tables, {1}…{9} replaced by its args.
type sentence struct {
	key  string
	args []part
}

// say makes a sentence.
func say(key string, args ...part) sentence { return sentence{key: key, args: args} }

func (s sentence) in(l *importWords, rows bool) string {
	t, ok := l.sentences[s.key]
	if !ok {
		t = importLanguages["en"].sentences[s.key]
	}
	if strings.IndexByte(t, '{') < 0 {
		return t
	}
	var b strings.Builder
	for i := 0; i < len(t); i++ {
		if t[i] == '{' && i+2 < len(t) && t[i+1] >= '1' && t[i+1] <= '9' && t[i+2] == '}' {
			if j := int(t[i+1] - '1'); j < len(s.args) && s.args[j] != nil {
				b.WriteString(s.args[j].in(l, rows))
			}
			i += 2
			continue
		}
		b.WriteByte(t[i])
	}
	return b.String()
}

// seq is parts said one after the other (a reason and its notes, each
// note's sentence starting with its separator).
type seq []part

func (q seq) in(l *importWords, rows bool) string {
	var b strings.Builder
	for _, p := range q {
		if p != nil {
			b.WriteString(p.in(l, rows))
		}
	}
	return b.String()
}

// last is the last part of q, nil when none.
func (q seq) last() part {
	if len(q) == 0 {
		return nil
	}
	return q[len(q)-1]
}

// val is a value said as it is in every language: from the data, a
// currency sign, a date format pattern, a type name.
type val string

func (v val) in(*importWords, bool) string { return string(v) }

// quoted is a value from the data, quoted (Go-quoted in English).
type quoted string

func (v quoted) in(l *importWords, _ bool) string {
	q := strconv.Quote(string(v))
	if l.open == "" {
		return q
	}
	return l.open + strings.ReplaceAll(q[1:len(q)-1], `\"`, `"`) + l.close
}

// count is a count, with the language's thousands separators.
type count int64

func (n count) in(l *importWords, _ bool) string {
	s := engine.GroupThousands(int64(n))
	if l.thousands != "," {
		s = strings.ReplaceAll(s, ",", l.thousands)
	}
	return s
}

// lineAt is a line of the file ("line 57"), a row of a sheet ("row 57").
type lineAt int64

func (n lineAt) in(l *importWords, rows bool) string {
	f := l.line
	if rows {
		f = l.row
	}
	return strings.Replace(f, "{n}", strconv.FormatInt(int64(n), 10), 1)
}

// list is parts joined the language's way: sep is "comma", "semi" or "or".
type list struct {
	sep   string
	items []part
}

func (x list) in(l *importWords, rows bool) string {
	s := l.comma
	switch x.sep {
	case "semi":
		s = l.semi
	case "or":
		s = l.or
	}
	parts := make([]string, 0, len(x.items))
	for _, p := range x.items {
		parts = append(parts, p.in(l, rows))
	}
	return strings.Join(parts, s)
}

// vals lists values from the data.
func vals(sep string, vs []string) list {
	x := list{sep: sep, items: make([]part, len(vs))}
	for i, v := range vs {
		x.items[i] = val(v)
	}
	return x
}

// lineList is the lines of the first bad values: "12, 40, 55".
type lineList []int64

func (ls lineList) in(l *importWords, _ bool) string {
	parts := make([]string, len(ls))
	for i, n := range ls {
		parts[i] = strconv.FormatInt(n, 10)
	}
	return strings.Join(parts, l.comma)
}

// pluralKey is key+"_1" when n is 1, key+"_n" otherwise.
func pluralKey(key string, n int64) string {
	if n == 1 {
		return key + "_1"
	}
	return key + "_n"
}

// sayAll says p in every language of engine.ReasonLanguages; rows says
// rows of a sheet rather than lines of a file. It returns the English one
// too.
func sayAll(p part, rows bool) (string, map[string]string) {
	if p == nil {
		return "", nil
	}
	out := make(map[string]string, len(engine.ReasonLanguages))
	for _, lang := range engine.ReasonLanguages {
		l := importLanguages[lang]
		if l == nil {
			l = importLanguages["en"]
		}
		out[lang] = p.in(l, rows)
	}
	return out["en"], out
}

// english says p in English.
func english(p part, rows bool) string {
	if p == nil {
		return ""
	}
	return p.in(importLanguages["en"], rows)
}

// importWords is one language's sentences of import reasons.
type importWords struct {
	sentences   map[string]string
	comma       string // between values
	semi        string // between notes
	or          string // between alternatives
	thousands   string // in counts
	open, close string // around a quoted value ("" : Go quoting)
	line, row   string // a line of a file, a row of a sheet: {n} is its number
}

var importLanguages = map[string]*importWords{
	"en": {
		comma: ", ", semi: "; ", or: " or ", thousands: ",", line: "line {n}", row: "row {n}",
		sentences: map[string]string{
			// The Inferrer's reasons.
			"no_rows":         "no values (no data rows)",
			"all_markers":     "every value is empty or a missing-value marker ({1})",
			"all_empty":       "every value is empty",
			"missing_1":       "; 1 value missing ({2}), stored as NULL",
			"missing_n":       "; {1} values missing ({2}), stored as NULL",
			"empty_word":      "empty",
			"boolean":         "every value is {1}, stored as 1/0",
			"percentages":     "percentages, stored as fractions (12% → 0.12)",
			"pct_dec_comma":   "; decimal commas (European style)",
			"text_values":     "the values are text ({1} holds {2})",
			"kept_text":       "kept as text: {1} holds {2}, {3}",
			"fit":             "; {1} of {2} values are {3}, {4}",
			"fit_not_1":       "1 is not",
			"fit_not_n":       "{1} are not (first on lines {2})",
			"amounts_in":      "amounts in {1}",
			"whole_numbers":   "whole numbers",
			"numbers":         "numbers",
			"percentages_w":   "percentages",
			"yes_no_values":   "yes/no values",
			"dates":           "dates",
			"date_times":      "date-times",
			"dates_in":        "dates written {1}",
			"date_times_in":   "date-times written {1}",
			"values":          "values",
			"text":            "text",
			"amounts":         "amounts in {1} (currency signs and thousands separators dropped)",
			"amounts_paren":   "amounts in {1} (currency signs and thousands separators dropped; accounting parentheses read as negative)",
			"amount_whole":    "every amount is whole",
			"all_whole":       "every value is a whole number",
			"all_numbers":     "every value is a number",
			"european":        "written European-style (1.234,5): . between thousands, decimal comma",
			"decimal_comma":   "written with a decimal comma (European style)",
			"dot_thousands":   "written with . between thousands (European style)",
			"thousands_gone":  "thousands separators removed",
			"ambiguous_dates": "kept as text: dates such as {1} ({2}) could be month/day or day/month, and no value decides (none has a first or second part over 12)",
			"notes":           " ({1})",
			"day_first":       "a first part over 12 on {1} shows the order",
			"month_first":     "a second part over 12 on {1} shows the order",
			"two_digit_years": "two-digit years 00–68 read as 20xx, 69–99 as 19xx",
			"midnight":        "dates without a time read as midnight",
			// Why a value does not fit a kind.
			"not_number":     "which is not a number",
			"not_percentage": "which is not a percentage",
			"not_yes_no":     "which is not a yes/no value",
			"not_date":       "which is not a date",
			"no_pct_sign":    "a number without a % sign",
			"pct_among":      "a percentage among plain numbers",
			"too_large":      "a whole number too large to store exactly",
			"leading_zero":   "a code with a leading zero (a number would lose it)",
			"other_style":    "written in another number style than {1} on {2}",
			"other_currency": "an amount in {1} while {2} holds one in {3}",
			"invalid_date":   "which is not a valid date",
			"fraction_secs":  "which has fractional seconds",
			"invalid_time":   "which is not a valid time",
			"time_zone":      "which has a time zone",
			"month_then_day": "which puts the month first, while {1} ({2}) puts the day first",
			"day_then_month": "which puts the day first, while {1} ({2}) puts the month first",
			// A type the analyst chose.
			"note":             "; {1}",
			"pct_fractions":    "percentages stored as fractions (12% → 0.12)",
			"month_first_read": "read month first: no value shows the order",
			"text_chosen":      "text, as chosen (detected: {1})",
			"all_fit":          "{1}, as chosen: all {2} values are {3}",
			"some_null":        "{1}, as chosen: {2} of {3} values are {4}; {5}, stored as NULL: {6}",
			"null_that_1":      "1 value that is not",
			"null_that_n":      "{1} values that are not",
			"null_that_least":  "at least {1} values that are not",
			"at_least":         "at least {1}",
			"bad_at":           "{1} {2}",
			"etc":              ", …",
			"stops":            "{1}, as chosen: {2} values are not {3} ({4}), which stops the import (the policy error)",
			"detected_kept":    "{1}: {2} values are not {3} ({4}), so the detected type is kept; choose the policy null to store them as NULL",
			"text_kept":        "kept as text: {1} was chosen, but {2} values are not {3} ({4}); choose the policy null to store them as NULL",
			"a_whole_number":   "a whole number",
			"a_number":         "a number",
			"a_date":           "a date",
			"a_date_time":      "a date-time",
			"a_yes_no":         "a yes/no value",
			// Excel cells.
			"shown_like":      " (shown like {1})",
			"excel_dates":     "Excel date cells{1}, stored as YYYY-MM-DD from their serial numbers",
			"excel_datetimes": "Excel date-time cells{1}, stored as YYYY-MM-DD HH:MM:SS from their serial numbers (rounded to the second)",
			"excel_date_text": "; its Excel date cells{1} are stored as YYYY-MM-DD (HH:MM:SS) text",
			"excel_booleans":  "Excel TRUE/FALSE cells, stored as 1/0",
			"excel_bool_text": "; its Excel TRUE/FALSE cells are stored as the text true/false",
			// Skipped columns.
			"skip_empty":   "no header and no values: " + imports.EmptyColumnRule,
			"skip_analyst": "skipped by the analyst",
		},
	},
	"fr": {
		comma: ", ", semi: " ; ", or: " ou ", thousands: "\u202f", open: "« ", close: " »", line: "ligne {n}", row: "ligne {n}",
		sentences: map[string]string{
			"no_rows":          "aucune valeur (aucune ligne de données)",
			"all_markers":      "chaque valeur est vide ou marque une valeur manquante ({1})",
			"all_empty":        "chaque valeur est vide",
			"missing_1":        " ; 1 valeur manquante ({2}), enregistrée comme NULL",
			"missing_n":        " ; {1} valeurs manquantes ({2}), enregistrées comme NULL",
			"empty_word":       "vide",
			"boolean":          "chaque valeur est {1}, enregistrée comme 1/0",
			"percentages":      "des pourcentages, enregistrés comme fractions (12 % → 0.12)",
			"pct_dec_comma":    " ; virgules décimales (style européen)",
			"text_values":      "les valeurs sont du texte (la {1} contient {2})",
			"kept_text":        "gardée comme texte : la {1} contient {2}, {3}",
			"fit":              " ; {1} valeurs sur {2} sont {3}, {4}",
			"fit_not_1":        "1 ne l’est pas",
			"fit_not_n":        "{1} ne le sont pas (les premières aux lignes {2})",
			"amounts_in":       "des montants en {1}",
			"whole_numbers":    "des nombres entiers",
			"numbers":          "des nombres",
			"percentages_w":    "des pourcentages",
			"yes_no_values":    "des valeurs oui/non",
			"dates":            "des dates",
			"date_times":       "des dates-heures",
			"dates_in":         "des dates écrites {1}",
			"date_times_in":    "des dates-heures écrites {1}",
			"values":           "des valeurs",
			"text":             "du texte",
			"amounts":          "des montants en {1} (symboles monétaires et séparateurs de milliers retirés)",
			"amounts_paren":    "des montants en {1} (symboles monétaires et séparateurs de milliers retirés ; parenthèses comptables lues comme négatives)",
			"amount_whole":     "chaque montant est entier",
			"all_whole":        "chaque valeur est un nombre entier",
			"all_numbers":      "chaque valeur est un nombre",
			"european":         "écrites à l’européenne (1.234,5) : . entre les milliers, virgule décimale",
			"decimal_comma":    "écrites avec une virgule décimale (style européen)",
			"dot_thousands":    "écrites avec . entre les milliers (style européen)",
			"thousands_gone":   "séparateurs de milliers retirés",
			"ambiguous_dates":  "gardée comme texte : des dates comme {1} ({2}) peuvent se lire mois/jour ou jour/mois, et aucune valeur ne tranche (aucune n’a de première ou de deuxième partie supérieure à 12)",
			"notes":            " ({1})",
			"day_first":        "une première partie supérieure à 12 à la {1} montre l’ordre",
			"month_first":      "une deuxième partie supérieure à 12 à la {1} montre l’ordre",
			"two_digit_years":  "années à deux chiffres : 00–68 lues 20xx, 69–99 lues 19xx",
			"midnight":         "dates sans heure lues comme minuit",
			"not_number":       "qui n’est pas un nombre",
			"not_percentage":   "qui n’est pas un pourcentage",
			"not_yes_no":       "qui n’est pas une valeur oui/non",
			"not_date":         "qui n’est pas une date",
			"no_pct_sign":      "un nombre sans signe %",
			"pct_among":        "un pourcentage parmi des nombres simples",
			"too_large":        "un nombre entier trop grand pour être enregistré exactement",
			"leading_zero":     "un code commençant par zéro (un nombre le perdrait)",
			"other_style":      "écrit dans un autre style de nombre que {1} à la {2}",
			"other_currency":   "un montant en {1} alors que la {2} en contient un en {3}",
			"invalid_date":     "qui n’est pas une date valide",
			"fraction_secs":    "qui a des fractions de seconde",
			"invalid_time":     "qui n’est pas une heure valide",
			"time_zone":        "qui a un fuseau horaire",
			"month_then_day":   "qui met le mois en premier, alors que la {1} ({2}) met le jour en premier",
			"day_then_month":   "qui met le jour en premier, alors que la {1} ({2}) met le mois en premier",
			"note":             " ; {1}",
			"pct_fractions":    "pourcentages enregistrés comme fractions (12 % → 0.12)",
			"month_first_read": "lues mois en premier : aucune valeur ne montre l’ordre",
			"text_chosen":      "texte, comme choisi (détecté : {1})",
			"all_fit":          "{1}, comme choisi : les {2} valeurs sont {3}",
			"some_null":        "{1}, comme choisi : {2} valeurs sur {3} sont {4} ; {5}, enregistrées comme NULL : {6}",
			"null_that_1":      "1 valeur ne l’est pas",
			"null_that_n":      "{1} valeurs ne le sont pas",
			"null_that_least":  "au moins {1} valeurs ne le sont pas",
			"at_least":         "au moins {1}",
			"bad_at":           "{1} {2}",
			"etc":              ", …",
			"stops":            "{1}, comme choisi : {2} valeurs ne sont pas {3} ({4}), ce qui arrête l’import (la politique error)",
			"detected_kept":    "{1} : {2} valeurs ne sont pas {3} ({4}), donc le type détecté est gardé ; choisissez la politique null pour les enregistrer comme NULL",
			"text_kept":        "gardée comme texte : {1} a été choisi, mais {2} valeurs ne sont pas {3} ({4}) ; choisissez la politique null pour les enregistrer comme NULL",
			"a_whole_number":   "des nombres entiers",
			"a_number":         "des nombres",
			"a_date":           "des dates",
			"a_date_time":      "des dates-heures",
			"a_yes_no":         "des valeurs oui/non",
			"shown_like":       " (affichées comme {1})",
			"excel_dates":      "cellules de date Excel{1}, enregistrées en AAAA-MM-JJ à partir de leurs numéros de série",
			"excel_datetimes":  "cellules de date-heure Excel{1}, enregistrées en AAAA-MM-JJ HH:MM:SS à partir de leurs numéros de série (arrondies à la seconde)",
			"excel_date_text":  " ; ses cellules de date Excel{1} sont enregistrées comme texte AAAA-MM-JJ (HH:MM:SS)",
			"excel_booleans":   "cellules VRAI/FAUX Excel, enregistrées comme 1/0",
			"excel_bool_text":  " ; ses cellules VRAI/FAUX Excel sont enregistrées comme le texte true/false",
			"skip_empty":       "ni en-tête ni valeurs : une colonne sans en-tête ni aucune valeur est écartée (en CSV comme en XLSX) ; une colonne avec un en-tête est gardée",
			"skip_analyst":     "écartée par l’analyste",
		},
	},
	"zh": {
		comma: "、", semi: "；", or: " 或 ", thousands: ",", open: "“", close: "”", line: "第 {n} 行", row: "第 {n} 行",
		sentences: map[string]string{
			"no_rows":          "没有值（没有数据行）",
			"all_markers":      "每个值都为空或是缺失值标记（{1}）",
			"all_empty":        "每个值都为空",
			"missing_1":        "；1 个值缺失（{2}），存为 NULL",
			"missing_n":        "；{1} 个值缺失（{2}），存为 NULL",
			"empty_word":       "空",
			"boolean":          "每个值都是 {1}，存为 1/0",
			"percentages":      "百分比，存为小数（12% → 0.12）",
			"pct_dec_comma":    "；使用小数逗号（欧洲格式）",
			"text_values":      "这些值是文本（如{1}的{2}）",
			"kept_text":        "保留为文本：{1}的值{2}{3}",
			"fit":              "；{2} 个值中有 {1} 个是{3}，{4}",
			"fit_not_1":        "1 个不是",
			"fit_not_n":        "{1} 个不是（最先出现在第 {2} 行）",
			"amounts_in":       "以 {1} 计的金额",
			"whole_numbers":    "整数",
			"numbers":          "数字",
			"percentages_w":    "百分比",
			"yes_no_values":    "是/否值",
			"dates":            "日期",
			"date_times":       "日期时间",
			"dates_in":         "格式为 {1} 的日期",
			"date_times_in":    "格式为 {1} 的日期时间",
			"values":           "值",
			"text":             "文本",
			"amounts":          "以 {1} 计的金额（已去掉货币符号和千位分隔符）",
			"amounts_paren":    "以 {1} 计的金额（已去掉货币符号和千位分隔符；会计括号读作负数）",
			"amount_whole":     "每个金额都是整数",
			"all_whole":        "每个值都是整数",
			"all_numbers":      "每个值都是数字",
			"european":         "欧洲格式（1.234,5）：千位用 . 分隔，小数用逗号",
			"decimal_comma":    "使用小数逗号（欧洲格式）",
			"dot_thousands":    "千位用 . 分隔（欧洲格式）",
			"thousands_gone":   "已去掉千位分隔符",
			"ambiguous_dates":  "保留为文本：{1}（{2}）这样的日期既可能是月/日，也可能是日/月，没有任何值能确定顺序（没有值的第一或第二部分大于 12）",
			"notes":            "（{1}）",
			"day_first":        "{1}的第一部分大于 12，确定了顺序",
			"month_first":      "{1}的第二部分大于 12，确定了顺序",
			"two_digit_years":  "两位数年份 00–68 读作 20xx，69–99 读作 19xx",
			"midnight":         "没有时间的日期读作午夜",
			"not_number":       "不是数字",
			"not_percentage":   "不是百分比",
			"not_yes_no":       "不是是/否值",
			"not_date":         "不是日期",
			"no_pct_sign":      "是没有 % 符号的数字",
			"pct_among":        "是普通数字中的百分比",
			"too_large":        "是过大的整数，无法精确存储",
			"leading_zero":     "是以零开头的代码（存为数字会丢失零）",
			"other_style":      "的数字格式与{2}的{1}不同",
			"other_currency":   "是以 {1} 计的金额，而{2}是以 {3} 计的金额",
			"invalid_date":     "不是有效日期",
			"fraction_secs":    "带有小数秒",
			"invalid_time":     "不是有效时间",
			"time_zone":        "带有时区",
			"month_then_day":   "月份在前，而{1}（{2}）日在前",
			"day_then_month":   "日在前，而{1}（{2}）月份在前",
			"note":             "；{1}",
			"pct_fractions":    "百分比存为小数（12% → 0.12）",
			"month_first_read": "按月份在前读取：没有值能确定顺序",
			"text_chosen":      "文本，按所选（检测到：{1}）",
			"all_fit":          "{1}，按所选：全部 {2} 个值都是{3}",
			"some_null":        "{1}，按所选：{3} 个值中有 {2} 个是{4}；{5}，存为 NULL：{6}",
			"null_that_1":      "1 个值不是",
			"null_that_n":      "{1} 个值不是",
			"null_that_least":  "至少 {1} 个值不是",
			"at_least":         "至少 {1}",
			"bad_at":           "{1}{2}",
			"etc":              "等",
			"stops":            "{1}，按所选：{2} 个值不是{3}（{4}），导入因此停止（策略 error）",
			"detected_kept":    "{1}：{2} 个值不是{3}（{4}），因此保留检测到的类型；选择策略 null 可将它们存为 NULL",
			"text_kept":        "保留为文本：选择了 {1}，但 {2} 个值不是{3}（{4}）；选择策略 null 可将它们存为 NULL",
			"a_whole_number":   "整数",
			"a_number":         "数字",
			"a_date":           "日期",
			"a_date_time":      "日期时间",
			"a_yes_no":         "是/否值",
			"shown_like":       "（显示为{1}）",
			"excel_dates":      "Excel 日期单元格{1}，由序列号存为 YYYY-MM-DD",
			"excel_datetimes":  "Excel 日期时间单元格{1}，由序列号存为 YYYY-MM-DD HH:MM:SS（舍入到秒）",
			"excel_date_text":  "；其中的 Excel 日期单元格{1}存为 YYYY-MM-DD（HH:MM:SS）文本",
			"excel_booleans":   "Excel TRUE/FALSE 单元格，存为 1/0",
			"excel_bool_text":  "；其中的 Excel TRUE/FALSE 单元格存为文本 true/false",
			"skip_empty":       "没有表头也没有值：既没有表头也没有任何值的列会被略去（CSV 和 XLSX 相同）；有表头的列会保留",
			"skip_analyst":     "由分析人员略去",
		},
	},
}
