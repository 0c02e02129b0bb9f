package ingest

import (
	"reflect"
	"testing"
)

func TestColumnNames(t *testing.T) {
	tests := []struct {
		in, want []string
	}{
		{[]string{"Name", "Primary %", "2020 Election Stance", "E-PAC", "Maggie's List"},
			[]string{"name", "primary_pct", "c_2020_election_stance", "e_pac", "maggie_s_list"}},
		{[]string{"Primary", "Runoff %", "% change", "Order #", "# of votes", "100%", "a%b"},
			[]string{"c_primary", "runoff_pct", "pct_change", "order_num", "num_of_votes", "c_100_pct", "a_pct_b"}},
		{[]string{"Café", "Ñandú", "naïve  résumé", "Straße", "Øre"},
			[]string{"cafe", "nandu", "naive_resume", "straße", "øre"}},
		{[]string{"", "x", "", "  "}, []string{"column_1", "x", "column_3", "column_4"}},
		{[]string{"a", "A", "a"}, []string{"a", "a_2", "a_3"}},
		{[]string{"a", "a", "a_2"}, []string{"a", "a_3", "a_2"}},
		{[]string{"column_2", ""}, []string{"column_2", "column_2_2"}},
		{[]string{"__id__", "--", "%", "#"}, []string{"id", "column_2", "pct", "num"}},
		{[]string{"Amount ($)", "amount $"}, []string{"amount", "amount_2"}},
		{[]string{"日本語", "Название", "हिन्दी", "Ελληνικά"}, []string{"日本語", "название", "हिन्दी", "ελληνικά"}}, // only Latin letters lose their accents
		{[]string{"line\nbreak", "tab\there"}, []string{"line_break", "tab_here"}},
		{[]string{"٣ arabic digit"}, []string{"c_٣_arabic_digit"}},
	}
	for _, tt := range tests {
		if got := ColumnNames(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ColumnNames(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestTableName(t *testing.T) {
	tests := map[string]string{
		"538_cabinet-turnover":     "t_538_cabinet_turnover",
		"bank-marketing_semicolon": "bank_marketing_semicolon",
		"Ventes été 2024":          "ventes_ete_2024",
		"":                         "table",
		"!!!":                      "table",
		"sqlite_stats":             "t_sqlite_stats",
		"Sheet 1":                  "sheet_1",
		"données (copie)":          "donnees_copie",
		"__private":                "private",
		"My.Data.v2":               "my_data_v2",
		"ÉTÉ":                      "ete",
	}
	for in, want := range tests {
		if got := TableName(in); got != want {
			t.Errorf("TableName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestIsMissing(t *testing.T) {
	for _, s := range []string{"", " ", "NA", "na", "N/A", "n/a", "null", "NULL", "-", "#N/A", " N/A "} {
		if !IsMissing(s) {
			t.Errorf("IsMissing(%q) = false, want true", s)
		}
	}
	for _, s := range []string{"0", "none", "--", "nan", "N.A.", "NAN", "x"} {
		if IsMissing(s) {
			t.Errorf("IsMissing(%q) = true, want false", s)
		}
	}
}
