package ask_test

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"querent/engine"
	"querent/engine/ask"
	"querent/engine/ollama"
	"querent/engine/ollama/ollamatest"
	"querent/engine/postgres"
	"querent/engine/postgres/pgtest"
	"querent/engine/sensitive"
)

// TestSensitiveOnPostgres is issue 28 on PostgreSQL: the marks follow the
// column through aliases (the server's own description of each result
// column: its relation and column number), expressions and aggregates
// (the statement reads it), and a view computed from it (its definition);
// and no request the model receives holds a value.
func TestSensitiveOnPostgres(t *testing.T) {
	srv, url := pgtest.StartChinook(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	extra := `CREATE VIEW contact AS SELECT first_name, lower(email) AS mail, country FROM customer;
GRANT SELECT ON contact TO ` + pgtest.Reader + `;`
	if out, err := srv.Psql(ctx, "chinook", "-c", extra); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	db, err := postgres.Open(ctx, url, postgres.Options{RequireReadOnlyRole: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	st := sensitive.Open(t.TempDir())
	if _, err := st.Add(ctx, db, "Customer.EMAIL"); err != nil {
		t.Fatal(err)
	}
	set, err := st.Apply(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if got := set.Columns(); !reflect.DeepEqual(got, []string{"contact.mail", "customer.email"}) {
		t.Errorf("marks with the view: %v", got)
	}
	for _, c := range []struct {
		sql  string
		want []bool
	}{
		{`SELECT email FROM customer`, []bool{true}},
		{`SELECT email AS e, first_name FROM customer`, []bool{true, false}},
		{`SELECT c.email AS e FROM customer c JOIN invoice i ON i.customer_id = c.customer_id`, []bool{true}},
		{`SELECT lower(email), first_name FROM customer`, []bool{true, false}},
		{`SELECT split_part(email, '@', 2) AS domain, count(*) FROM customer GROUP BY 1`, []bool{true, true}},
		{`SELECT country, count(*) FROM customer GROUP BY country`, []bool{false, false}},
		{`SELECT mail, first_name FROM contact`, []bool{true, false}},
		{`SELECT x.m FROM (SELECT email AS m FROM customer) x`, []bool{true}},
		{`SELECT email FROM employee`, []bool{false}},
	} {
		res, err := db.Run(ctx, c.sql, engine.RunOptions{MaxRows: 3})
		if err != nil {
			t.Fatalf("%s: %v", c.sql, err)
		}
		got := make([]bool, len(res.Columns))
		for i, col := range res.Columns {
			got[i] = col.Sensitive
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: sensitive %v, want %v (%+v)", c.sql, got, c.want, res.Columns)
		}
	}
	emails, err := db.Run(ctx, `SELECT email FROM customer`, engine.RunOptions{MaxRows: 100})
	if err != nil || len(emails.Rows) != 59 {
		t.Fatalf("emails: %v", err)
	}
	fake := ollamatest.New(t)
	fake.Respond(func(ollamatest.Request) ollamatest.Reply {
		return ollamatest.Answer("SELECT first_name, email, lower(email) AS mail FROM customer ORDER BY customer_id LIMIT 5", "Five customers.")
	})
	m, err := ollama.New(ollama.Config{Host: fake.URL, RequestTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	a := &ask.Asker{DB: db, Model: m, ModelName: "qwen2.5-coder:7b"}
	ans, err := a.Ask(ctx, "Five customers at embraer with their emails", nil, ask.Options{Today: today, Client: "test"})
	if err != nil || !ans.Columns[1].Sensitive || ans.Results.Values[0][1] != "luisg@embraer.com.br" {
		t.Fatalf("ask: %v %+v", err, ans)
	}
	var sent strings.Builder
	for _, req := range fake.Requests() {
		for _, msg := range req.Messages {
			sent.WriteString(strings.ToLower(msg.Content))
		}
	}
	for _, row := range emails.Rows {
		if e := strings.ToLower(row[0].(string)); strings.Contains(sent.String(), e) {
			t.Errorf("a request holds %s", e)
		}
	}
	if !strings.Contains(sent.String(), "[masked]") {
		t.Error("the explained rows are not masked")
	}
}
