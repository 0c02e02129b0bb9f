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
	col := func(name, typ string, pk int) *engine.TableColumn {
		return &engine.TableColumn{Name: name, Type: typ, Affinity: strings.ToUpper(typ), Nullable: pk == 0, PK: pk}
	}
	mk := func(name string, rows int64, cols []*engine.TableColumn, fks map[string]string, samples ...[]engine.Value) *engine.Table {
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
	v := func(vals ...engine.Value) []engine.Value { return vals }
	core := []*engine.Table{
		mk("customers", 5000, []*engine.TableColumn{col("id", "INTEGER", 1), col("name", "TEXT", 0), col("email", "TEXT", 0), col("country", "TEXT", 0), col("city", "TEXT", 0), col("created_at", "DATETIME", 0)}, nil,
			v(int64(1), "Ada Lovelace", "ada@example.com", "France", "Paris", "2021-01-04 10:00:00"),
			v(int64(2), "Alan Turing", "alan@example.com", "United Kingdom", "London", "2021-02-11 09:30:00")),
		mk("orders", 40000, []*engine.TableColumn{col("id", "INTEGER", 1), col("customer_id", "INTEGER", 0), col("order_date", "DATE", 0), col("status", "TEXT", 0), col("total_amount", "REAL", 0)},
			map[string]string{"customer_id": "customers(id)"},
			v(int64(1), int64(1), "2023-03-01", "shipped", 120.5)),
		mk("order_items", 120000, []*engine.TableColumn{col("id", "INTEGER", 1), col("order_id", "INTEGER", 0), col("product_id", "INTEGER", 0), col("quantity", "INTEGER", 0), col("unit_price", "REAL", 0)},
			map[string]string{"order_id": "orders(id)", "product_id": "products(id)"},
			v(int64(1), int64(1), int64(7), int64(2), 9.99)),
		mk("products", 800, []*engine.TableColumn{col("id", "INTEGER", 1), col("name", "TEXT", 0), col("category_id", "INTEGER", 0), col("supplier_id", "INTEGER", 0), col("price", "REAL", 0)},
			map[string]string{"category_id": "categories(id)", "supplier_id": "suppliers(id)"},
			v(int64(7), "Espresso cup", int64(3), int64(2), 9.99)),
		mk("categories", 20, []*engine.TableColumn{col("id", "INTEGER", 1), col("name", "TEXT", 0)}, nil, v(int64(3), "Kitchen")),
		mk("suppliers", 60, []*engine.TableColumn{col("id", "INTEGER", 1), col("company_name", "TEXT", 0), col("country", "TEXT", 0)}, nil, v(int64(2), "Acme Ltd", "Italy")),
		mk("employees", 120, []*engine.TableColumn{col("id", "INTEGER", 1), col("first_name", "TEXT", 0), col("last_name", "TEXT", 0), col("hire_date", "DATE", 0), col("store_id", "INTEGER", 0)},
			map[string]string{"store_id": "stores(id)"}, v(int64(1), "Grace", "Hopper", "2019-05-01", int64(1))),
		mk("stores", 12, []*engine.TableColumn{col("id", "INTEGER", 1), col("name", "TEXT", 0), col("city", "TEXT", 0)}, nil, v(int64(1), "Main Street", "Lyon")),
		mk("payments", 39000, []*engine.TableColumn{col("id", "INTEGER", 1), col("order_id", "INTEGER", 0), col("amount", "REAL", 0), col("method", "TEXT", 0), col("paid_at", "DATETIME", 0)},
			map[string]string{"order_id": "orders(id)"}, v(int64(1), int64(1), 120.5, "card", "2023-03-01 12:00:00")),
		mk("shipments", 38000, []*engine.TableColumn{col("id", "INTEGER", 1), col("order_id", "INTEGER", 0), col("carrier", "TEXT", 0), col("shipped_at", "DATETIME", 0)},
			map[string]string{"order_id": "orders(id)"}, v(int64(1), int64(1), "DHL", "2023-03-02 08:00:00")),
	}
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
		cols := []*engine.TableColumn{col("id", "INTEGER", 1)}
		fks := map[string]string{}
		switch k := r.IntN(10); {
		case k == 0: // a leaf of one shop table
			ref := core[r.IntN(len(core))].Name
			cols = append(cols, col(strings.TrimSuffix(ref, "s")+"_id", "INTEGER", 0))
			fks[cols[1].Name] = ref + "(id)"
		case len(noise) > 0 && k < 7:
			for j := 0; j < 1+r.IntN(2); j++ {
				ref := noise[r.IntN(len(noise))]
				c := col(ref+"_ref", "INTEGER", 0)
				if fks[c.Name] == "" {
					cols = append(cols, c)
					fks[c.Name] = ref + "(id)"
				}
			}
		}
		for j := 0; j < 4+r.IntN(7); j++ {
			typ := []string{"TEXT", "INTEGER", "REAL", "TEXT"}[r.IntN(4)]
			cols = append(cols, col(word(r)+"_"+word(r), typ, 0))
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
		t := mk(name, int64(r.IntN(1_000_000)), cols, fks, samples...)
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
		noise = append(noise, name)
		s.Tables = append(s.Tables, t)
	}
	// Shuffle so that the shop's tables are not simply first.
	r.Shuffle(len(s.Tables), func(i, j int) { s.Tables[i], s.Tables[j] = s.Tables[j], s.Tables[i] })
	return s
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
