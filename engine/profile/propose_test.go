package profile_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"querent/engine/ollama"
	"querent/engine/ollama/ollamatest"
	"querent/engine/profile"
	"querent/engine/sensitive"
)

// TestProposeKeepsWhatRuns: the model's questions are guests — a write,
// SQL that does not compile, one that returns nothing and one asked
// already are dropped; only those that run and return rows are kept, with
// their rows. Its prompt carries the profile, but no value of a column
// marked sensitive.
func TestProposeKeepsWhatRuns(t *testing.T) {
	db := open(t, chinook(t))
	db.SetSensitive(sensitive.New("Customer.Email"))
	ctx := context.Background()
	p, err := profile.Profile(ctx, db, profile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	have, err := profile.Suggest(ctx, db, p, "fr", 0)
	if err != nil {
		t.Fatal(err)
	}
	fake := ollamatest.New(t, ollamatest.Reply{Content: `{"questions": [
		{"question": "Quels genres ont le plus de morceaux ?", "sql": "SELECT g.Name, count(*) AS n FROM Track t JOIN Genre g USING (GenreId) GROUP BY 1 ORDER BY 2 DESC LIMIT 10"},
		{"question": "Supprimer les vieilles factures", "sql": "DELETE FROM Invoice"},
		{"question": "Quels artistes ?", "sql": "SELECT Nom FROM Artiste"},
		{"question": "Des factures de 1990 ?", "sql": "SELECT * FROM Invoice WHERE InvoiceDate < '1990-01-01'"},
		{"question": "` + have[0].Question + `", "sql": "SELECT 1"},
		{"question": "Quelle est la durée moyenne d'un morceau par type de média ?", "sql": "SELECT m.Name, avg(Milliseconds) FROM Track JOIN MediaType m USING (MediaTypeId) GROUP BY 1"}]}`})
	m, err := ollama.New(ollama.Config{Host: fake.URL, RequestTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	got, err := profile.Propose(ctx, db, p, m, "qwen2.5-coder:7b", "fr", 5, have, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Kind != "model" || got[0].RowCount != 10 || !strings.Contains(got[1].Question, "durée") || got[1].RowCount != 5 {
		t.Fatalf("kept %+v", got)
	}
	req := fake.Requests()[0]
	prompt := req.Messages[0].Content + req.Messages[1].Content
	for _, want := range []string{"French", "Table Track (3503 rows)", "Track.AlbumId = Album.AlbumId", "Email", "sensitive: values not shown", have[1].Question} {
		if !strings.Contains(prompt, want) {
			t.Errorf("the prompt lacks %q", want)
		}
	}
	// Customer.Email is marked; Employee.Email is not.
	if strings.Contains(prompt, "@embraer.com.br") || strings.Contains(prompt, "@gmail.com") || strings.Contains(prompt, "@yahoo") {
		t.Errorf("the prompt holds a customer's email address")
	}
}
