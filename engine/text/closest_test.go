package text

import (
	"reflect"
	"testing"
)

// TestClosest: "did you mean" only for names that are close; "nope" is two
// edits from "copy" and "Name", which are not what the user meant.
func TestClosest(t *testing.T) {
	for _, tt := range []struct {
		target string
		cands  []string
		n      int
		want   []string
	}{
		{"nope", []string{"copy", "Name", "notes", "date"}, 3, nil},
		{"covid_x9", []string{"copy", "covid_19"}, 3, []string{"covid_19"}},
		{"nme", []string{"Name", "copy"}, 3, []string{"Name"}},
		{"Contry", []string{"Country", "County"}, 3, []string{"Country"}},
		{"Albmu", []string{"Album", "Artist"}, 3, []string{"Album"}},
		{"invoice_date", []string{"InvoiceDate", "InvoiceId", "BillingCity"}, 1, []string{"InvoiceDate"}},
		{"InvoiceDat", []string{"InvoiceDate", "InvoiceId"}, 1, []string{"InvoiceDate"}},
		{"totl", []string{"Total", "CustomerId"}, 1, []string{"Total"}},
		{"customer", []string{"Total", "CustomerId"}, 1, []string{"CustomerId"}},
		{"totals", []string{"Total", "CustomerId"}, 1, []string{"Total"}},
		{"zzz", []string{"Total", "CustomerId"}, 1, nil},
		// A qualified name is compared on its last part too.
		{"invoce", []string{"public.invoice", "public.customer"}, 3, []string{"public.invoice"}},
		{"Invoice", []string{"sales.invoice", "public.invoice_line"}, 3, []string{"sales.invoice"}},
	} {
		if got := Closest(tt.target, tt.cands, tt.n); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Closest(%q, %q) = %q, want %q", tt.target, tt.cands, got, tt.want)
		}
	}
}
