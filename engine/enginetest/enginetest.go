// Package enginetest holds fixtures that the engine's packages share in
// their tests: the demo database opened once, and a generated 300-table
// schema.
package enginetest

import (
	"context"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"querent/engine"
	"querent/engine/sqlite"
)

var (
	chinookOnce   sync.Once
	chinookSchema *engine.Schema
	chinookDB     *sqlite.DB
	chinookErr    error
)

// Chinook opens the demo database once for the package's tests.
func Chinook(t testing.TB) (*sqlite.DB, *engine.Schema) {
	t.Helper()
	chinookOnce.Do(func() {
		ctx := context.Background()
		chinookDB, chinookErr = sqlite.OpenDemo(ctx, sqlite.Options{})
		if chinookErr == nil {
			chinookSchema, chinookErr = chinookDB.Schema(ctx)
		}
	})
	if chinookErr != nil {
		t.Fatalf("open the demo: %v", chinookErr)
	}
	return chinookDB, chinookSchema
}

// word makes a pronounceable random word that is no English word of the
// generated schema's core.
func word(r *rand.Rand) string {
	cons := "bdfgklmnprstvz"
	vows := "aeiou"
	var b strings.Builder
	for i := 0; i < 2+r.IntN(2); i++ {
		b.WriteByte(cons[r.IntN(len(cons))])
		b.WriteByte(vows[r.IntN(len(vows))])
	}
	b.WriteByte(cons[r.IntN(len(cons))])
	return b.String()
}

// BigSchema builds a 300-table schema: a shop's 10 tables (customers,
// orders, order_items, products, categories, suppliers, employees, stores,
// payments, shipments) among 290 tables of random words with foreign keys
// between them (and some to one shop table each, as leaves).
func BigSchema() *engine.Schema {
	r := rand.New(rand.NewPCG(1, 2))
	core := shopTables()
	s := &engine.Schema{Database: "shop.sqlite"}
	s.Tables = append(s.Tables, core...)
	used := map[string]bool{}
	var noise []string
	for len(noise) < 290 {
		name := word(r) + "_" + word(r)
		if used[name] {
			continue
		}
		used[name] = true
		s.Tables = append(s.Tables, noiseTable(r, name, core, noise))
		noise = append(noise, name)
	}
	// Shuffle so that the shop's tables are not simply first.
	r.Shuffle(len(s.Tables), func(i, j int) { s.Tables[i], s.Tables[j] = s.Tables[j], s.Tables[i] })
	return s
}

// newColumn is a column of the generated schema; pk > 0 for the primary key.
func newColumn(name, typ string, pk int) *engine.TableColumn {
	return &engine.TableColumn{Name: name, Type: typ, Affinity: strings.ToUpper(typ), Nullable: pk == 0, PK: pk}
}

// newTable is a table of the generated schema, keyed by its first column,
// with the foreign keys fks (column → "table(column)") and sample rows.
func newTable(name string, rows int64, cols []*engine.TableColumn, fks map[string]string, samples ...[]engine.Value) *engine.Table {
	t := &engine.Table{Name: name, Kind: "table", RowCount: rows, Columns: cols, PrimaryKey: []string{cols[0].Name}}
	for _, c := range cols {
		if ref, ok := fks[c.Name]; ok {
			t.ForeignKeys = append(t.ForeignKeys, engine.ForeignKey{Column: c.Name, References: ref})
		}
		t.Samples.Columns = append(t.Samples.Columns, c.Name)
	}
	t.Samples.Values = samples
	return t
}

// shopTables are the generated schema's 10 shop tables.
func shopTables() []*engine.Table {
	v := func(vals ...engine.Value) []engine.Value { return vals }
	return []*engine.Table{
		newTable("customers", 5000, []*engine.TableColumn{newColumn("id", "INTEGER", 1), newColumn("name", "TEXT", 0), newColumn("email", "TEXT", 0), newColumn("country", "TEXT", 0), newColumn("city", "TEXT", 0), newColumn("created_at", "DATETIME", 0)}, nil,
			v(int64(1), "Ada Lovelace", "ada@example.com", "France", "Paris", "2021-01-04 10:00:00"),
			v(int64(2), "Alan Turing", "alan@example.com", "United Kingdom", "London", "2021-02-11 09:30:00")),
		newTable("orders", 40000, []*engine.TableColumn{newColumn("id", "INTEGER", 1), newColumn("customer_id", "INTEGER", 0), newColumn("order_date", "DATE", 0), newColumn("status", "TEXT", 0), newColumn("total_amount", "REAL", 0)},
			map[string]string{"customer_id": "customers(id)"},
			v(int64(1), int64(1), "2023-03-01", "shipped", 120.5)),
		newTable("order_items", 120000, []*engine.TableColumn{newColumn("id", "INTEGER", 1), newColumn("order_id", "INTEGER", 0), newColumn("product_id", "INTEGER", 0), newColumn("quantity", "INTEGER", 0), newColumn("unit_price", "REAL", 0)},
			map[string]string{"order_id": "orders(id)", "product_id": "products(id)"},
			v(int64(1), int64(1), int64(7), int64(2), 9.99)),
		newTable("products", 800, []*engine.TableColumn{newColumn("id", "INTEGER", 1), newColumn("name", "TEXT", 0), newColumn("category_id", "INTEGER", 0), newColumn("supplier_id", "INTEGER", 0), newColumn("price", "REAL", 0)},
			map[string]string{"category_id": "categories(id)", "supplier_id": "suppliers(id)"},
			v(int64(7), "Espresso cup", int64(3), int64(2), 9.99)),
		newTable("categories", 20, []*engine.TableColumn{newColumn("id", "INTEGER", 1), newColumn("name", "TEXT", 0)}, nil, v(int64(3), "Kitchen")),
		newTable("suppliers", 60, []*engine.TableColumn{newColumn("id", "INTEGER", 1), newColumn("company_name", "TEXT", 0), newColumn("country", "TEXT", 0)}, nil, v(int64(2), "Acme Ltd", "Italy")),
		newTable("employees", 120, []*engine.TableColumn{newColumn("id", "INTEGER", 1), newColumn("first_name", "TEXT", 0), newColumn("last_name", "TEXT", 0), newColumn("hire_date", "DATE", 0), newColumn("store_id", "INTEGER", 0)},
			map[string]string{"store_id": "stores(id)"}, v(int64(1), "Grace", "Hopper", "2019-05-01", int64(1))),
		newTable("stores", 12, []*engine.TableColumn{newColumn("id", "INTEGER", 1), newColumn("name", "TEXT", 0), newColumn("city", "TEXT", 0)}, nil, v(int64(1), "Main Street", "Lyon")),
		newTable("payments", 39000, []*engine.TableColumn{newColumn("id", "INTEGER", 1), newColumn("order_id", "INTEGER", 0), newColumn("amount", "REAL", 0), newColumn("method", "TEXT", 0), newColumn("paid_at", "DATETIME", 0)},
			map[string]string{"order_id": "orders(id)"}, v(int64(1), int64(1), 120.5, "card", "2023-03-01 12:00:00")),
		newTable("shipments", 38000, []*engine.TableColumn{newColumn("id", "INTEGER", 1), newColumn("order_id", "INTEGER", 0), newColumn("carrier", "TEXT", 0), newColumn("shipped_at", "DATETIME", 0)},
			map[string]string{"order_id": "orders(id)"}, v(int64(1), int64(1), "DHL", "2023-03-02 08:00:00")),
	}
}

// noiseTable makes the noise table name: a key, foreign keys to one shop
// table (a leaf) or to one or two earlier noise tables (most tables),
// random columns and three sample rows, and a third of the time its first
// text column's distinct values. It draws from r in a fixed order, so that
// the schema is the same on every run.
func noiseTable(r *rand.Rand, name string, core []*engine.Table, noise []string) *engine.Table {
	cols := []*engine.TableColumn{newColumn("id", "INTEGER", 1)}
	fks := map[string]string{}
	switch k := r.IntN(10); {
	case k == 0: // a leaf of one shop table
		ref := core[r.IntN(len(core))].Name
		cols = append(cols, newColumn(strings.TrimSuffix(ref, "s")+"_id", "INTEGER", 0))
		fks[cols[1].Name] = ref + "(id)"
	case len(noise) > 0 && k < 7:
		for j := 0; j < 1+r.IntN(2); j++ {
			ref := noise[r.IntN(len(noise))]
			c := newColumn(ref+"_ref", "INTEGER", 0)
			if fks[c.Name] == "" {
				cols = append(cols, c)
				fks[c.Name] = ref + "(id)"
			}
		}
	}
	for j := 0; j < 4+r.IntN(7); j++ {
		typ := []string{"TEXT", "INTEGER", "REAL", "TEXT"}[r.IntN(4)]
		cols = append(cols, newColumn(word(r)+"_"+word(r), typ, 0))
	}
	var samples [][]engine.Value
	for i := 0; i < 3; i++ {
		row := make([]engine.Value, len(cols))
		for j, c := range cols {
			switch {
			case j == 0 || c.Type == "INTEGER":
				row[j] = int64(r.IntN(10000))
			case c.Type == "REAL":
				row[j] = float64(r.IntN(100000)) / 100
			default:
				row[j] = word(r) + " " + word(r)
			}
		}
		samples = append(samples, row)
	}
	t := newTable(name, int64(r.IntN(1_000_000)), cols, fks, samples...)
	if r.IntN(3) == 0 {
		var vals []engine.Value
		for i := 0; i < 5; i++ {
			vals = append(vals, word(r))
		}
		slices.SortFunc(vals, func(a, b engine.Value) int { return strings.Compare(a.(string), b.(string)) })
		for _, c := range cols {
			if c.Type == "TEXT" {
				t.DistinctValues.Add(c.Name, vals)
				break
			}
		}
	}
	return t
}

// Main runs the tests of m with Querent's data folder (the demo's private
// copy, the history) in a temporary folder, never the home folder, unless
// QUERENT_DATA_DIR is set already. Call it from TestMain.
func Main(m *testing.M) {
	if os.Getenv("QUERENT_DATA_DIR") != "" {
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "querent-test-data-")
	if err != nil {
		panic(err)
	}
	os.Setenv("QUERENT_DATA_DIR", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
