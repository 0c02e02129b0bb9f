package ask_test

import (
	"context"
	"testing"

	"querent/engine/ask"
	"querent/engine/enginetest"
)

func TestIsSQL(t *testing.T) {
	db, _ := enginetest.Chinook(t)
	for text, want := range map[string]bool{
		"SELECT Name FROM Artist":                  true,
		"select count(*) from Track":               true,
		"WITH x AS (SELECT 1) DELETE FROM Invoice": true, // refused, but SQL: never sent to a model
		"DELETE FROM Track":                        true,
		"SELECT nope FROM covid_x9":                true, // broken SQL gets its error
		"SELECT Name FROM Artist WHERE":            true,
		"Select the top 10 customers by spending":  false,
		"Select the customers from Brazil":         false,
		"select all the albums of the best artist": false,
		"Which artist has the most albums?":        false,
		"Show me the invoices":                     false,
		"  -- a comment\nSELECT 1":                 true,
		// A clarification's answer in parentheses (issue 25): still prose.
		"Show me the best employees (by revenue)":         false,
		"Set the best customers apart (by spending)":      false,
		"Do the sales grow (month over month)?":           false,
		"Table of sales per country (highest first)":      false,
		"SELECT count(Totl) FROM Invoic":                  true, // broken SQL with parentheses stays SQL
		"SELECT sum(Total) FROM Invoice GROUP BY Countri": true,
		"": false,
	} {
		if got := ask.IsSQL(context.Background(), db, text); got != want {
			t.Errorf("IsSQL(%q) = %v, want %v", text, got, want)
		}
	}
}
