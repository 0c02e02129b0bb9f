package glossary

import (
	"strings"
	"testing"
)

// A question uses an entry when it says its term or a synonym in any word
// form, case or accent, in English, French or Chinese; words that only
// look alike do not.
func TestMatch(t *testing.T) {
	entries := []Entry{
		{Term: "active customer", Synonyms: []string{"live account"}},
		{Term: "chiffre d'affaires", Synonyms: []string{"CA"}},
		{Term: "clients fidèles"},
		{Term: "活跃客户"},
		{Term: "Q3"},
		{Term: "année fiscale"},
	}
	cases := []struct {
		question string
		want     string // the terms matched, in order, joined by |
	}{
		{"How many active customers are there?", "active customer"},
		{"ACTIVE CUSTOMER count by country", "active customer"},
		{"list live accounts in 2013", "active customer"},
		{"quel est le chiffre d’affaires par pays ?", "chiffre d'affaires"},
		{"le chiffre d'affaires des clients fideles", "chiffre d'affaires|clients fidèles"},
		{"Quels sont les CLIENTS FIDÈLES ?", "clients fidèles"},
		{"sales in Q3 of the fiscal year", "Q3"},
		{"les ventes de l'année fiscale 2012", "année fiscale"},
		{"有多少活跃客户？", "活跃客户"},
		{"北京的活跃客户和Q3", "活跃客户|Q3"},
		// Not used: other words, the words apart, part of a term.
		{"customer activity last year", ""},
		{"active users and their customers", ""},
		{"the customers", ""},
		{"客户有多少", ""},
		{"le chiffre des ventes", ""},
	}
	for _, c := range cases {
		var got []string
		for _, e := range Match(c.question, entries) {
			got = append(got, e.Term)
		}
		if g := strings.Join(got, "|"); g != c.want {
			t.Errorf("%q: matched %q, want %q", c.question, g, c.want)
		}
	}
	// The order is that of the question.
	got := Match("Q3 and active customers", entries)
	if len(got) != 2 || got[0].Term != "Q3" || got[1].Term != "active customer" {
		t.Errorf("order: %+v", got)
	}
}

// A term is one entry whatever its form.
func TestKey(t *testing.T) {
	if Key("Active  Customers") != Key("active customer") || Key("Clientes Fidèles") != Key("clientes fideles") {
		t.Errorf("keys: %q %q", Key("Active  Customers"), Key("active customer"))
	}
	if Key("active customer") == Key("active") || Key("x") != "" {
		t.Errorf("keys: %q %q %q", Key("active customer"), Key("active"), Key("x"))
	}
}
