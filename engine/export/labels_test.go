package export_test

import (
	"context"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"querent/engine"
	"querent/engine/export"
)

// TestXLSXLanguages: in French and in Chinese the workbook's own words —
// sheet names, the Provenance fields, the Statistics header, the chart's
// notes — are in that language, while the data (values, column names, the
// question) is byte for byte the English workbook's.
func TestXLSXLanguages(t *testing.T) {
	db := demo(t)
	const query = "SELECT g.Name AS genre, count(*) AS tracks FROM Track t JOIN Genre g USING (GenreId) GROUP BY g.Name ORDER BY tracks DESC"
	write := func(lang string) string {
		out := filepath.Join(t.TempDir(), "genres.xlsx")
		_, err := export.Export(context.Background(), db, query, out, export.Options{Chart: export.ChartAuto, Language: lang,
			Provenance: export.Provenance{Question: "Combien de morceaux par genre ?"}})
		if err != nil {
			t.Fatalf("%s: %v", lang, err)
		}
		return out
	}
	en := openXLSX(t, write("en"))
	enData := rawRows(t, en, "Data")
	for _, tt := range []struct {
		lang                                       string
		sheets                                     []string
		field, question, statsFirst, kind, chartTo string
		reason                                     string // the chart's reason in the language
	}{
		{"fr", []string{"Données", "Provenance", "Statistiques", "Graphique"}, "champ", "question", "colonne", "numérique", "Choisi automatiquement : ",
			"une catégorie (genre) et un nombre (tracks) : des barres les comparent selon genre"},
		{"zh", []string{"数据", "来源", "统计", "图表"}, "字段", "问题", "列", "数值", "自动选择：",
			"一个分类（genre）和 1 个数值（tracks）：柱状图按 genre 比较它们"},
		{"fr-CA", []string{"Données", "Provenance", "Statistiques", "Graphique"}, "champ", "question", "colonne", "numérique", "Choisi automatiquement : ",
			"une catégorie (genre)"},
	} {
		f := openXLSX(t, write(tt.lang))
		if got := f.GetSheetList(); !reflect.DeepEqual(got, tt.sheets) {
			t.Errorf("%s: sheets %q, want %q", tt.lang, got, tt.sheets)
			continue
		}
		if got := rawRows(t, f, tt.sheets[0]); !reflect.DeepEqual(got, enData) {
			t.Errorf("%s: the data differs from the English workbook's", tt.lang)
		}
		prov := rawRows(t, f, tt.sheets[1])
		if prov[0][0] != tt.field || prov[1][0] != tt.question || prov[1][1] != "Combien de morceaux par genre ?" {
			t.Errorf("%s: provenance %q", tt.lang, prov[:2])
		}
		stats := rawRows(t, f, tt.sheets[2])
		if stats[0][0] != tt.statsFirst || !slices.Contains(stats[2], tt.kind) || stats[1][0] != "genre" {
			t.Errorf("%s: statistics %q", tt.lang, stats[:3])
		}
		chart := rawRows(t, f, tt.sheets[3])
		if len(chart) < 2 || len(chart[1][0]) < len(tt.chartTo) || chart[1][0][:len(tt.chartTo)] != tt.chartTo {
			t.Errorf("%s: chart notes %q", tt.lang, chart)
		} else if !strings.Contains(chart[1][0], tt.reason) {
			t.Errorf("%s: the chart's reason %q does not say %q", tt.lang, chart[1][0], tt.reason)
		}
	}
	_, err := export.Export(context.Background(), db, query, filepath.Join(t.TempDir(), "x.xlsx"), export.Options{Language: "de"})
	if e := engine.AsError(err); e == nil || e.Code != engine.CodeUsage {
		t.Errorf("language de: %v, want a usage error", err)
	}
}
