package eval_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"querent/engine"
	"querent/engine/eval"
	"querent/engine/postgres"
	"querent/engine/postgres/pgtest"
)

// The built-in gold set's PostgreSQL translation (gold/chinook_postgresql.toml)
// on a real server: a private cluster (pgtest) with the seeds' PostgreSQL
// Chinook, read by a role that may only read, as a user's would be.

// openPostgresChinook starts a private cluster with Chinook loaded, stopped
// when t ends, and opens it as a read-only role. Without PostgreSQL the test
// skips, unless QUERENT_REQUIRE_POSTGRES is set.
func openPostgresChinook(t *testing.T) engine.Database {
	t.Helper()
	_, url := pgtest.StartChinook(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	db, err := postgres.Open(ctx, url, postgres.Options{RequireReadOnlyRole: true})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	if db.Dialect() != "postgresql" {
		t.Fatalf("dialect %q", db.Dialect())
	}
	return db
}

// TestPostgresGold runs the built-in set's PostgreSQL translation on a real
// server: every item's gold SQL and each alternative run through the guard
// and give the result of the SQLite gold SQL on the SQLite demo, under the
// item's match rule (the one querent eval scores with); then a run of
// perfect predictions (the translation's own queries) scores 1.0.
func TestPostgresGold(t *testing.T) {
	pg := openPostgresChinook(t)
	pgGold, err := eval.LoadFor("chinook", pg.Dialect())
	if err != nil {
		t.Fatal(err)
	}
	if pgGold.Dialect != "postgresql" || pgGold.Name != "chinook" {
		t.Fatalf("LoadFor(chinook, %s) gave the %s set %s", pg.Dialect(), pgGold.Dialect, pgGold.Name)
	}
	t.Run("translation", func(t *testing.T) { checkTranslation(t, pgGold, pg) })
	t.Run("perfect-predictions", func(t *testing.T) { perfectPredictions(t, pgGold, pg) })
}

// The PostgreSQL Chinook (version 1.4.5) holds the demo's data but for
// three things, which sameData checks row by row: its invoices are yearShift
// years later (2021-2025 against 2009-2013, on the same days), the track
// 'Balls to the Wall' (2) has its composers where the demo has NULL, and
// the city of customer 54 (and of their invoices) is 'Edinburgh', not the
// demo's 'Edinburgh ' with a trailing space.
const (
	yearShift      = 12
	track2Composer = "U. Dirkschneider, W. Hoffmann, H. Frank, P. Baltes, S. Kaufmann, G. Hoffmann"
)

// sameData compares every table of the two Chinooks, row by row, with the
// differences above applied to the demo's side.
func sameData(t *testing.T, demo, pg engine.Database) {
	shift := strconv.Itoa(yearShift)
	for _, q := range [][2]string{
		{"SELECT * FROM Album ORDER BY AlbumId", "SELECT * FROM album ORDER BY album_id"},
		{"SELECT * FROM Artist ORDER BY ArtistId", "SELECT * FROM artist ORDER BY artist_id"},
		{"SELECT CustomerId, FirstName, LastName, Company, Address, " + edinburgh("City") + ", State, Country, PostalCode, Phone, Fax, Email, SupportRepId FROM Customer ORDER BY CustomerId",
			"SELECT * FROM customer ORDER BY customer_id"},
		{"SELECT * FROM Employee ORDER BY EmployeeId", "SELECT * FROM employee ORDER BY employee_id"},
		{"SELECT * FROM Genre ORDER BY GenreId", "SELECT * FROM genre ORDER BY genre_id"},
		{"SELECT * FROM MediaType ORDER BY MediaTypeId", "SELECT * FROM media_type ORDER BY media_type_id"},
		{"SELECT * FROM Playlist ORDER BY PlaylistId", "SELECT * FROM playlist ORDER BY playlist_id"},
		{"SELECT * FROM PlaylistTrack ORDER BY PlaylistId, TrackId", "SELECT * FROM playlist_track ORDER BY playlist_id, track_id"},
		{"SELECT * FROM InvoiceLine ORDER BY InvoiceLineId", "SELECT * FROM invoice_line ORDER BY invoice_line_id"},
		{"SELECT InvoiceId, CustomerId, datetime(InvoiceDate, '+" + shift + " years'), BillingAddress, " + edinburgh("BillingCity") + ", BillingState, BillingCountry, BillingPostalCode, Total FROM Invoice ORDER BY InvoiceId",
			"SELECT * FROM invoice ORDER BY invoice_id"},
		{"SELECT TrackId, Name, AlbumId, MediaTypeId, GenreId, CASE TrackId WHEN 2 THEN '" + track2Composer + "' ELSE Composer END, Milliseconds, Bytes, UnitPrice FROM Track ORDER BY TrackId",
			"SELECT * FROM track ORDER BY track_id"},
	} {
		want, err := runSQL(t, demo, q[0])
		if err != nil {
			t.Fatalf("%s: %v", q[0], err)
		}
		res, err := pg.Run(context.Background(), q[1], engine.RunOptions{MaxRows: eval.DefaultMaxRows})
		if err != nil {
			t.Fatalf("%s: %v", q[1], err)
		}
		if v := eval.Compare(want, pgResultSet(res), eval.Rule{OrderMatters: true}); !v.Match || len(want.Rows) == 0 {
			t.Fatalf("the PostgreSQL Chinook differs from the demo: %s: %s", q[1], v.Reason)
		}
	}
}

func edinburgh(col string) string {
	return "CASE " + col + " WHEN 'Edinburgh ' THEN 'Edinburgh' ELSE " + col + " END"
}

// knownDifferences turn the SQLite gold result into the PostgreSQL one
// where the data differs (sameData).
var knownDifferences = map[string]func(eval.ResultSet){
	// 'Balls to the Wall' has a composer: one track fewer without.
	"tracks-no-composer": func(rs eval.ResultSet) { rs.Rows[0][0] = rs.Rows[0][0].(int64) - 1 },
}

// checkTranslation compares every PostgreSQL query of pgGold with the SQLite
// gold query of the same item. The two databases hold the same data (but
// for the differences above) and write numbers differently: SQLite sums
// money as floats (2328.6000000000004), PostgreSQL exactly as numeric, which
// the engine reads as a float when it has at most 15 digits and as its exact
// text when it has more (an average such as 1.0508054522924411). The
// comparison makes such numbers floats, rounds floats on both sides to 12
// significant digits, and reads a year the demo shows ('2009'…'2013') as the
// year 12 later; then it applies the strict rule: text stays text (a year
// as '2022' never equals 2022), and rows, columns, order and NULLs are
// compared as querent eval does.
func checkTranslation(t *testing.T, pgGold *eval.GoldSet, pg engine.Database) {
	base, err := eval.Builtin("chinook")
	if err != nil {
		t.Fatal(err)
	}
	demo := openDemo(t)
	sameData(t, demo, pg)
	queries, exact, unanswerable := 0, 0, 0
	var rounded []string
	for i, it := range pgGold.Items {
		b := base.Items[i]
		if !it.Answerable() {
			unanswerable++
			continue
		}
		want, err := runSQL(t, demo, b.SQL)
		if err != nil {
			t.Errorf("%s: the SQLite gold SQL does not run on the demo: %v", it.ID, err)
			continue
		}
		want = shiftYears(want)
		if f := knownDifferences[it.ID]; f != nil {
			f(want)
		}
		rule := b.Rule(b.SQL, false)
		for j, q := range it.GoldQueries() {
			what := "the gold SQL"
			if j > 0 {
				what = "alternative " + strconv.Itoa(j)
			}
			queries++
			if got := it.Rule(q, false); got != rule {
				t.Errorf("%s: %s has the rule %+v, the SQLite gold SQL %+v (a top-level ORDER BY where the other has none?)", it.ID, what, got, rule)
			}
			res, err := pg.Run(context.Background(), q, engine.RunOptions{MaxRows: eval.DefaultMaxRows})
			if err != nil {
				t.Errorf("%s: %s does not run on PostgreSQL: %v\n%s", it.ID, what, err, q)
				continue
			}
			got := pgResultSet(res)
			if len(got.Rows) == 0 {
				t.Errorf("%s: %s returns no rows", it.ID, what)
			}
			if eval.Compare(want, got, rule).Match {
				exact++
			} else {
				rounded = append(rounded, it.ID)
			}
			if v := eval.Compare(normalised(want), normalised(got), rule); !v.Match {
				t.Errorf("%s: %s differs from the SQLite gold SQL on the demo: %s\nPostgreSQL: %s\n  %s\nSQLite: %s\n  %s", it.ID, what, v.Reason, q, rows(got), b.SQL, rows(want))
			}
		}
	}
	t.Logf("chinook on PostgreSQL: %d items, %d unanswerable, %d queries checked against SQLite (%d equal without rounding floats; rounded: %s)",
		len(pgGold.Items), unanswerable, queries, exact, strings.Join(rounded, ", "))
}

// pgResultSet is a PostgreSQL result as the scorer sees it, with numeric
// values kept as exact text (more than 15 digits) read as floats.
func pgResultSet(res *engine.Result) eval.ResultSet {
	rs := eval.ResultSet{Columns: make([]string, len(res.Columns))}
	for i, c := range res.Columns {
		rs.Columns[i] = c.Name
	}
	for _, row := range res.Rows {
		out := make([]engine.Value, len(row))
		for i, v := range row {
			out[i] = v
			if s, ok := v.(string); ok && strings.HasPrefix(res.Columns[i].Type, "numeric") {
				if f, err := strconv.ParseFloat(s, 64); err == nil {
					out[i] = f
				}
			}
		}
		rs.Rows = append(rs.Rows, out)
	}
	return rs
}

// shiftYears reads the years that the demo's invoices have, as text
// ('2009'…'2013'), as those of the PostgreSQL Chinook.
func shiftYears(rs eval.ResultSet) eval.ResultSet {
	out := eval.ResultSet{Columns: rs.Columns}
	for _, row := range rs.Rows {
		r := slices.Clone(row)
		for i, v := range r {
			if s, ok := v.(string); ok && len(s) == 4 {
				if y, err := strconv.Atoi(s); err == nil && y >= 2009 && y <= 2013 {
					r[i] = strconv.Itoa(y + yearShift)
				}
			}
		}
		out.Rows = append(out.Rows, r)
	}
	return out
}

// rows prints the first rows of rs for a failure.
func rows(rs eval.ResultSet) string {
	s := fmt.Sprint(rs.Rows)
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// normalised rounds the floats of rs to 12 significant digits.
func normalised(rs eval.ResultSet) eval.ResultSet {
	out := eval.ResultSet{Columns: rs.Columns}
	for _, row := range rs.Rows {
		r := make([]engine.Value, len(row))
		for i, v := range row {
			r[i] = v
			if f, ok := v.(float64); ok && f != 0 && !math.IsInf(f, 0) && !math.IsNaN(f) {
				r[i], _ = strconv.ParseFloat(strconv.FormatFloat(f, 'g', 12, 64), 64)
			}
		}
		out.Rows = append(out.Rows, r)
	}
	return out
}

// perfectPredictions scores the translation's own queries (and abstentions
// on the unanswerable items) as predictions, through eval.Run as querent
// eval --predictions does: every item matches.
func perfectPredictions(t *testing.T, g *eval.GoldSet, pg engine.Database) {
	var jsonl strings.Builder
	for _, it := range g.Items {
		p := map[string]string{"id": it.ID, "sql": it.SQL}
		if !it.Answerable() {
			p = map[string]string{"id": it.ID, "unanswerable": it.Unanswerable}
		}
		b, _ := json.Marshal(p)
		jsonl.Write(append(b, '\n'))
	}
	preds, err := eval.ParsePredictions("predictions.jsonl", []byte(jsonl.String()), g)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := eval.Run(context.Background(), eval.Options{Gold: g, DB: pg, Predictions: preds})
	if err != nil {
		t.Fatal(err)
	}
	m := rep.Models[0]
	for _, it := range m.Items {
		if !it.Match {
			t.Errorf("%s: %s: %s", it.ID, it.Outcome, it.Reason)
		}
	}
	if m.ExecutionAccuracy != 1 || m.Matches != len(g.Items) || m.Abstention == nil || *m.Abstention != 1 || m.FalseRefusals != 0 {
		t.Fatalf("accuracy %v (%d of %d), abstention %v, false refusals %d", m.ExecutionAccuracy, m.Matches, m.Questions, m.Abstention, m.FalseRefusals)
	}
	if rep.Gold != "chinook" || rep.GoldSource != "built-in (postgresql)" {
		t.Errorf("the report names the gold set %s (%s)", rep.Gold, rep.GoldSource)
	}
	t.Logf("perfect predictions on PostgreSQL: execution accuracy %v, %d of %d items", m.ExecutionAccuracy, m.Matches, len(g.Items))
}
