package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"querent/engine/ollama/ollamatest"
	"querent/engine/profile"
)

// shopFiles writes three CSV files: customers (ids 1–50), orders whose
// customer_id all occur in customers.id, and visits whose customer_id
// match only 95 %.
func shopFiles(t *testing.T) []string {
	t.Helper()
	dir := t.TempDir()
	var cust, orders, visits strings.Builder
	cust.WriteString("id,name\n")
	for i := 1; i <= 50; i++ {
		fmt.Fprintf(&cust, "%d,c%d\n", i, i)
	}
	orders.WriteString("order_no,customer_id,amount\n")
	visits.WriteString("visit,customer_id\n")
	for i := 1; i <= 200; i++ {
		fmt.Fprintf(&orders, "%d,%d,%d.5\n", i, 1+i%50, i)
		c := 1 + i%50
		if i%20 == 0 {
			c = 1000 + i // 5 % of visits name no customer
		}
		fmt.Fprintf(&visits, "%d,%d\n", i, c)
	}
	var paths []string
	for name, b := range map[string]*strings.Builder{"customers.csv": &cust, "orders.csv": &orders, "visits.csv": &visits} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

func schemaRelationships(t *testing.T, db string) map[string]profile.Relationship {
	t.Helper()
	code, out, errs := run(t, "", "schema", "--db", db, "--format", "json")
	var doc struct {
		Relationships []profile.Relationship `json:"relationships"`
		Tables        []json.RawMessage      `json:"tables"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &doc) != nil || len(doc.Tables) != 4 { // and _querent_imports
		t.Fatalf("schema: exit %d %s %s", code, out, errs)
	}
	got := map[string]profile.Relationship{}
	for _, r := range doc.Relationships {
		got[r.From] = r
	}
	return got
}

// issue 27 §3: files imported together get their joins read from the
// values, shown in schema with the share matched (a 95 % near-match is
// not one), given to the model as inferred foreign keys; a dropped one is
// neither listed nor given.
func TestRelationshipsOfImportedFiles(t *testing.T) {
	db := filepath.Join(t.TempDir(), "shop.sqlite")
	if code, _, errs := runImport(t, append([]string{"import", "--db", db}, shopFiles(t)...)...); code != 0 {
		t.Fatalf("import: exit %d %s", code, errs)
	}
	got := schemaRelationships(t, db)
	if r, ok := got["orders.customer_id"]; !ok || r.To != "customers.id" || !r.Inferred || r.Matched == nil || *r.Matched != 1 {
		t.Fatalf("orders.customer_id: %+v (all %+v)", r, got)
	}
	if r, ok := got["visits.customer_id"]; ok {
		t.Errorf("a 95 %% near-match was taken for a join: %+v", r)
	}

	ask := func() string {
		t.Helper()
		fake := ollamatest.New(t, ollamatest.Answer("SELECT count(*) AS n FROM orders", "Counts the orders."))
		if code, out, errs := runWith(t, askCLI(t, fake), "", "ask", "--db", db, "--format", "json", "How many orders per customer name?"); code != 0 {
			t.Fatalf("ask: exit %d %s %s", code, out, errs)
		}
		reqs := fake.Requests()
		if len(reqs) == 0 {
			t.Fatal("no request reached the model")
		}
		var b strings.Builder
		for _, m := range reqs[0].Messages {
			b.WriteString(m.Content + "\n")
		}
		return b.String()
	}
	const hint = "REFERENCES customers(id) /* inferred from the values */"
	if p := ask(); !strings.Contains(p, hint) {
		t.Errorf("the prompt lacks the inferred join %q:\n%s", hint, p)
	}

	code, out, errs := run(t, "", "relationships", "drop", "--db", db, "orders.customer_id", "customers.id")
	if code != 0 || !strings.Contains(out, "Dropped orders.customer_id → customers.id") {
		t.Fatalf("drop: exit %d %s %s", code, out, errs)
	}
	if p := ask(); strings.Contains(p, "customers(id)") {
		t.Errorf("the prompt still holds the dropped join:\n%s", p)
	}
	if _, ok := schemaRelationships(t, db)["orders.customer_id"]; ok {
		t.Errorf("schema lists the dropped join")
	}
	code, out, _ = run(t, "", "relationships", "list", "--all", "--db", db)
	if code != 0 || !strings.Contains(out, "orders.customer_id → customers.id (inferred, 100.0% matched, dropped)") {
		t.Errorf("list --all: exit %d %s", code, out)
	}
	code, out, _ = run(t, "", "relationships", "confirm", "--db", db, "orders.customer_id", "customers.id")
	if code != 0 || !strings.Contains(out, "confirmed") {
		t.Errorf("confirm: exit %d %s", code, out)
	}
	if r := schemaRelationships(t, db)["orders.customer_id"]; !r.Confirmed || r.Dropped {
		t.Errorf("after confirm: %+v", r)
	}
	code, _, errs = run(t, "", "relationships", "drop", "--db", db, "visits.customer_id", "customers.id")
	if code != 2 || !strings.Contains(errs, "no relationship visits.customer_id → customers.id") {
		t.Errorf("dropping a join that is not one: exit %d %s", code, errs)
	}
}
