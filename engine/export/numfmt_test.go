package export_test

import (
	"context"
	"path/filepath"
	"testing"

	"querent/engine/export"
)

// TestXLSXNumberFormats: numeric columns get the format a person would give
// them, from their names and values: #,##0 for counts, #,##0.00 for money
// and rounded amounts, 0.0% for shares, none for ids, years and codes;
// dates stay dates; the widths fit the formatted values.
func TestXLSXNumberFormats(t *testing.T) {
	db := demo(t)
	query := `SELECT c.CustomerId, c.FirstName || ' ' || c.LastName AS customer, count(*) AS invoices,
  sum(i.Total) AS total_spent, round(avg(i.Total), 2) AS avg_invoice, avg(i.Total) * 1.0 / 3 AS score,
  sum(i.Total) / (SELECT sum(Total) FROM Invoice) AS share_of_sales,
  100.0 * sum(i.Total) / (SELECT sum(Total) FROM Invoice) AS pct_of_sales,
  CAST(strftime('%Y', max(i.InvoiceDate)) AS INTEGER) AS last_year, max(i.InvoiceDate) AS last_invoice,
  c.PostalCode AS postal_code, sum(il.Quantity) * 1000 AS units_x1000
FROM Customer c JOIN Invoice i USING (CustomerId) JOIN InvoiceLine il USING (InvoiceId)
GROUP BY c.CustomerId ORDER BY total_spent DESC`
	out := filepath.Join(t.TempDir(), "formats.xlsx")
	if _, err := export.Export(context.Background(), db, query, out, export.Options{}); err != nil {
		t.Fatal(err)
	}
	f := openXLSX(t, out)
	want := map[string]string{
		"A": "",                    // CustomerId: an identifier
		"B": "",                    // text
		"C": "#,##0",               // a count
		"D": "#,##0.00",            // money by name
		"E": "#,##0.00",            // rounded to 2 decimals
		"F": "",                    // an unrounded measure
		"G": "0.0%",                // a share (0–1)
		"H": `0.0"%"`,              // percentage points (0–100)
		"I": "yyyy",                // a year: a date shown as its year (issue 25)
		"J": "yyyy-mm-dd hh:mm:ss", // a date-time
		"L": "#,##0",
	}
	for col, fmtWant := range want {
		for _, row := range []string{"2", "30"} {
			if got := numFmtOf(t, f, "Data", col+row); got != fmtWant {
				h, _ := f.GetCellValue("Data", col+"1")
				t.Errorf("%s%s (%s): number format %q, want %q", col, row, h, got, fmtWant)
			}
		}
	}
	// The widths fit what the formats show: "1,000,000" needs nine characters.
	if w, _ := f.GetColWidth("Data", "L"); w < 12 { // units_x1000 (11 + the filter button)
		t.Errorf("column L is %.1f wide, narrower than its header", w)
	}
	if w, _ := f.GetColWidth("Data", "D"); w < 12 {
		t.Errorf("column D (total_spent) is %.1f wide", w)
	}
}
