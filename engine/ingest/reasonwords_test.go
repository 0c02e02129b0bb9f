package ingest

import (
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"querent/engine"
	"querent/engine/imports"
)

var marker = regexp.MustCompile(`\{[0-9n]\}`)

// The tables of package words have every sentence in every language,
// citing the same parts (words_test.go); the rule for empty columns is the
// one engine/imports states.
func TestImportWordsSkipEmpty(t *testing.T) {
	if got, want := english(say("skip_empty"), false), "no header and no values: "+imports.EmptyColumnRule; got != want {
		t.Errorf("skip_empty says %q, want %q", got, want)
	}
}

// reasonsOf checks every reason of a table: said in every language, the
// English one the Reason, none left with a marker.
func reasonsOf(t *testing.T, where string, tb *imports.Table) {
	t.Helper()
	check := func(what, reason string, reasons map[string]string) {
		t.Helper()
		if reason == "" {
			return
		}
		if len(reasons) != len(engine.ReasonLanguages) || reasons["en"] != reason {
			t.Errorf("%s %s: reasons %q for %q", where, what, reasons, reason)
		}
		for lang, r := range reasons {
			if m := marker.FindString(r); m != "" || strings.TrimSpace(r) == "" {
				t.Errorf("%s %s (%s): %q", where, what, lang, r)
			}
		}
	}
	for _, c := range tb.PreviewColumns {
		check(c.Name, c.Reason, c.Reasons)
		check(c.Name+" skipped", c.SkipReason, c.SkipReasons)
	}
	for _, c := range tb.Columns {
		check(c.Name, c.Reason, c.Reasons)
	}
	for _, c := range tb.Skipped {
		check(c.Name+" skipped", c.Reason, c.Reasons)
	}
}

// Every reason of the messy files, detected or chosen (each type, each
// policy), is said in each language.
func TestImportReasonsSaid(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(messyDir, "..", "*", "*"))
	if len(files) == 0 {
		t.Skip("shared data not available")
	}
	for _, f := range files {
		srcs, err := ReadSources(context.Background(), f, Options{})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, s := range srcs {
			tb, _, err := s.Apply(Choices{})
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			where := filepath.Base(f) + " " + s.Name
			reasonsOf(t, where, tb)
			for _, c := range tb.PreviewColumns {
				for _, typ := range []string{"integer", "real", "date", "datetime", "boolean", "text"} {
					for _, ob := range []string{imports.OnBadText, imports.OnBadNull} {
						tc, _, err := s.Apply(Choices{Columns: []imports.ColumnOverride{{Column: c.Name, Type: typ, OnBad: ob}}})
						if err != nil {
							t.Fatalf("%s %s %s/%s: %v", where, c.Name, typ, ob, err)
						}
						reasonsOf(t, where+" "+c.Name+" "+typ+"/"+ob, tc)
					}
				}
				ts, _, _ := s.Apply(Choices{Columns: []imports.ColumnOverride{{Column: c.Name, Skip: true}}})
				reasonsOf(t, where+" "+c.Name+" skipped", ts)
			}
			s.Close()
		}
	}
}

// The cabinet file's start_date, as detected and chosen as a date, in
// French and Chinese: the values quoted as they are.
func TestImportReasonsFrenchChinese(t *testing.T) {
	s := source(t, messyFile(t, "538_cabinet-turnover.csv"), Options{})
	_, pc := previewColumn(t, mustApply(t, s, Choices{}), "start_date")
	want := map[string]string{
		"fr": "gardée comme texte : la ligne 58 contient « Aug. 1981 », qui n’est pas une date ; " +
			"371 valeurs sur 379 sont des dates écrites m/d/yy, 8 ne le sont pas (les premières aux lignes 58, 95, 97, 100, 101)",
		"zh": "保留为文本：第 58 行的值“Aug. 1981”不是日期；379 个值中有 371 个是格式为 m/d/yy 的日期，" +
			"8 个不是（最先出现在第 58、95、97、100、101 行）",
	}
	for lang, w := range want {
		if got := pc.Reasons[lang]; got != w {
			t.Errorf("start_date in %s:\n%s\nwant\n%s", lang, got, w)
		}
	}

	tb := mustApply(t, s, Choices{Columns: []imports.ColumnOverride{{Column: "start_date", Type: "date", OnBad: "null"}}})
	_, pc = previewColumn(t, tb, "start_date")
	list := map[string]string{
		"fr": "ligne 58 « Aug. 1981 », ligne 95 « Reagan admin », ligne 97 « Reagan admin », ligne 100 « Reagan admin », ligne 101 « Reagan admin », …",
		"zh": "第 58 行“Aug. 1981”、第 95 行“Reagan admin”、第 97 行“Reagan admin”、第 100 行“Reagan admin”、第 101 行“Reagan admin”等",
	}
	want = map[string]string{
		"fr": "DATE, comme choisi : 371 valeurs sur 379 sont des dates écrites m/d/yy ; 8 valeurs ne le sont pas, enregistrées comme NULL : " + list["fr"],
		"zh": "DATE，按所选：379 个值中有 371 个是格式为 m/d/yy 的日期；8 个值不是，存为 NULL：" + list["zh"],
	}
	for lang, w := range want {
		if got := pc.Reasons[lang]; got != w {
			t.Errorf("start_date as a date in %s:\n%s\nwant\n%s", lang, got, w)
		}
	}

	// departure_day: whole numbers and missing values; the empty columns
	// are left out.
	_, pc = previewColumn(t, tb, "departure_day")
	want = map[string]string{
		"fr": "chaque valeur est un nombre entier ; 32 valeurs manquantes (vide, N/A), enregistrées comme NULL",
		"zh": "每个值都是整数；32 个值缺失（空、N/A），存为 NULL",
	}
	for lang, w := range want {
		if got := pc.Reasons[lang]; got != w {
			t.Errorf("departure_day in %s: %q, want %q", lang, got, w)
		}
	}
	if len(tb.Skipped) == 0 || tb.Skipped[0].Reasons["fr"] != "ni en-tête ni valeurs : une colonne sans en-tête ni aucune valeur est écartée (en CSV comme en XLSX) ; une colonne avec un en-tête est gardée" {
		t.Errorf("skipped: %+v", tb.Skipped)
	}
}

// A sheet's reasons say rows in English, 行 in Chinese; counts take each
// language's thousands separator.
func TestImportReasonsSheetAndCounts(t *testing.T) {
	r := seq{say("kept_text", lineAt(57), quoted("approx. 5"), say("not_number")),
		say("fit", count(1194), count(1214), say("whole_numbers"), say("fit_not_n", count(20), lineList{638, 639}))}
	en, all := sayAll(r, true)
	want := map[string]string{
		"en": `kept as text: row 57 holds "approx. 5", which is not a number; 1,194 of 1,214 values are whole numbers, 20 are not (first on lines 638, 639)`,
		"fr": "gardée comme texte : la ligne 57 contient « approx. 5 », qui n’est pas un nombre ; 1\u202f194 valeurs sur 1\u202f214 sont des nombres entiers, 20 ne le sont pas (les premières aux lignes 638, 639)",
		"zh": "保留为文本：第 57 行的值“approx. 5”不是数字；1,214 个值中有 1,194 个是整数，20 个不是（最先出现在第 638、639 行）",
	}
	if en != want["en"] {
		t.Errorf("English %q", en)
	}
	for lang, w := range want {
		if all[lang] != w {
			t.Errorf("%s:\n%s\nwant\n%s", lang, all[lang], w)
		}
	}
}
