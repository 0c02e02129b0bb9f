package text

import (
	"reflect"
	"testing"
)

func TestFold(t *testing.T) {
	for in, want := range map[string]string{
		"São Paulo": "saopaulo", "AC/DC": "acdc", "Ærøskøbing": "aeroskobing", "Straße": "strasse",
		"Łódź": "lodz", "Ñandú": "nandu", "crème brûlée": "cremebrulee", "e\u0301t\u00e9": "ete",
		"北京市": "北京市", "Москва": "москва", "plain": "plain", "Œuvre": "oeuvre", "": "",
	} {
		if got := Fold(in); got != want {
			t.Errorf("Fold(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestWords(t *testing.T) {
	if got := IdentWords("InvoiceLineItems_2020"); !reflect.DeepEqual(got, []string{"invoic", "lin", "item"}) {
		t.Errorf("IdentWords = %q", got)
	}
	if got := Words("Customers in São Paulo, 2013"); !reflect.DeepEqual(got, []string{"customer", "in", "sao", "paulo"}) {
		t.Errorf("Words = %q", got)
	}
}

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b  string
		limit int
		want  int
	}{{"brasil", "brazil", 3, 1}, {"acdc", "adcc", 3, 1}, {"kitten", "sitting", 5, 3}, {"abc", "abc", 2, 0},
		{"abcdef", "zzzzzz", 3, 3}, {"a", "abcdef", 2, 2}} {
		if got := Distance(c.a, c.b, c.limit); got != c.want {
			t.Errorf("Distance(%q, %q, %d) = %d, want %d", c.a, c.b, c.limit, got, c.want)
		}
	}
}

func TestWidth(t *testing.T) {
	for in, want := range map[string]int{"abc": 3, "北京": 4, "ｱ": 1, "Ｑ": 2, "e\u0301": 1, "🎵": 2, "a\u200bb": 2} {
		if got := Width(in); got != want {
			t.Errorf("Width(%q) = %d, want %d", in, got, want)
		}
	}
}

func TestSlug(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"Top 10 customers by spending", "top-10-customers-by-spending"},
		{"Which artist's albums sold best in São Paulo?", "which-artists-albums-sold-best-in-sao-paulo"},
		{"  ¿Qué?  ", "que"},
		{"???", ""},
		{"Total sales per country, highest first, for every year since the shop opened in 2009", "total-sales-per-country-highest-first-for-every-year-since"},
	} {
		if got := Slug(tt.in, 60); got != tt.want {
			t.Errorf("Slug(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
