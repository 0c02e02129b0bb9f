package page

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"querent/engine"
	"querent/engine/words"
)

// ConnectRequest is the "Connect to PostgreSQL" dialog's form: the
// connection (the password is used for this connection only, never
// written anywhere), and whether to save the rest of it.
type ConnectRequest struct {
	Connection engine.Connection `json:"connection"`
	// Save keeps the connection (without its password) in the list of
	// saved connections, under Name ("" → database on host).
	Save bool   `json:"save"`
	Name string `json:"name"`
}

// SavedConnection is a PostgreSQL connection the user saved: everything
// but the password, which is typed again (or comes from ~/.pgpass or
// PGPASSWORD).
type SavedConnection struct {
	Name     string    `json:"name"`
	Host     string    `json:"host"`
	Port     int       `json:"port"`
	Database string    `json:"database"`
	Username string    `json:"username"`
	SSL      string    `json:"ssl"`
	SavedAt  time.Time `json:"saved_at"`
}

// ConnectionTest is what Test connection found: who the role is and what
// it may do, the server, and the tables it can read.
type ConnectionTest struct {
	Name     string        `json:"name"` // postgres://role@host:port/db
	Facts    []engine.Fact `json:"facts"`
	Tables   int           `json:"tables"`
	Views    int           `json:"views"`
	Warnings []string      `json:"warnings"` // a role that may write, a connection in clear…
	// WarningsSaid are Warnings in each of the page's languages, in its words.
	WarningsSaid []words.Said `json:"warnings_said"`
	Elapsed      float64      `json:"elapsed_s"`
}

const connectionsFile = "connections.json"

// Connect connects to a PostgreSQL database and makes it the window's
// (read-only, like a file), saving the connection without its password
// when asked.
func (d *Datasets) Connect(req ConnectRequest) (*DatasetInfo, error) {
	c, err := d.checkConnection(req.Connection)
	if err != nil {
		return nil, err
	}
	info, err := d.openWith(false, func(ctx context.Context, opts engine.OpenOptions) (engine.Database, error) {
		return d.a.deps.Connect(ctx, c, opts)
	})
	if err != nil {
		return nil, err
	}
	if req.Save {
		if err := d.saveConnection(req.Name, c); err != nil {
			w := fmt.Sprintf("The connection could not be saved (%v); it is open all the same.", err)
			info.Warnings = append(info.Warnings, w)
			info.WarningsSaid = append(info.WarningsSaid, pageSaid(words.Plain(w)))
		}
	}
	return info, nil
}

// TestConnection connects, reads what the role may do and the tables it
// can read, and disconnects; the open database stays as it is.
func (d *Datasets) TestConnection(conn engine.Connection) (*ConnectionTest, error) {
	c, err := d.checkConnection(conn)
	if err != nil {
		return nil, err
	}
	ctx, done := d.a.begin("test-connection")
	defer done()
	start := time.Now()
	db, err := d.a.deps.Connect(ctx, c, d.a.openOptions())
	if err != nil {
		return nil, err
	}
	defer db.Close()
	t := &ConnectionTest{Name: db.Name(), Warnings: append([]string{}, db.Warnings()...),
		WarningsSaid: pageWarnings(engine.DatabaseWarnings(db)), Facts: []engine.Fact{}}
	if o, ok := db.(engine.Origin); ok {
		t.Facts = o.Origin()
	}
	s, err := db.Schema(ctx)
	if err != nil {
		return nil, err
	}
	for _, tb := range s.Tables {
		switch {
		case tb.Internal:
		case tb.Kind == "view":
			t.Views++
		default:
			t.Tables++
		}
	}
	t.Elapsed = time.Since(start).Seconds()
	return t, nil
}

// CancelConnect stops a connection test that waits on a server.
func (d *Datasets) CancelConnect() error {
	d.a.cancel("test-connection")
	d.a.cancel("open")
	return nil
}

// checkConnection checks the dialog's form before any network is touched.
func (d *Datasets) checkConnection(c engine.Connection) (engine.Connection, error) {
	if d.a.deps.Connect == nil {
		return c, engine.Errorf(engine.CodeInternal, "this build cannot connect to PostgreSQL")
	}
	c.DBType = "postgresql"
	c.Host = strings.TrimSpace(c.Host)
	c.Database = strings.TrimSpace(c.Database)
	c.Username = strings.TrimSpace(c.Username)
	if c.Port < 0 || c.Port > 65535 {
		return c, engine.Errorf(engine.CodeUsage, "the port %d is not a TCP port", c.Port).WithHint("PostgreSQL listens on 5432 unless told otherwise")
	}
	return c, nil
}

// SavedConnections lists the saved PostgreSQL connections, newest first.
func (d *Datasets) SavedConnections() ([]SavedConnection, error) {
	var cs []SavedConnection
	_ = d.a.readJSON(connectionsFile, &cs)
	if cs == nil {
		cs = []SavedConnection{}
	}
	return cs, nil
}

// ForgetConnection removes a saved connection and returns the list.
func (d *Datasets) ForgetConnection(name string) ([]SavedConnection, error) {
	cs, _ := d.SavedConnections()
	kept := []SavedConnection{}
	for _, c := range cs {
		if c.Name != name {
			kept = append(kept, c)
		}
	}
	if len(kept) != len(cs) {
		if err := d.a.writeJSON(connectionsFile, kept); err != nil {
			return nil, err
		}
	}
	return kept, nil
}

// saveConnection puts c, without its password, at the top of the saved
// connections (at most 20; one of the same name is replaced).
func (d *Datasets) saveConnection(name string, c engine.Connection) error {
	name = strings.TrimSpace(name)
	if name == "" {
		name = defaultConnectionName(c)
	}
	cs, _ := d.SavedConnections()
	out := []SavedConnection{{Name: name, Host: c.Host, Port: c.Port, Database: c.Database, Username: c.Username,
		SSL: string(c.SSL), SavedAt: time.Now().UTC()}}
	for _, s := range cs {
		if s.Name != name && len(out) < 20 {
			out = append(out, s)
		}
	}
	return d.a.writeJSON(connectionsFile, out)
}

// defaultConnectionName names a connection "database on host".
func defaultConnectionName(c engine.Connection) string {
	db, host := c.Database, c.Host
	if db == "" {
		db = c.Username
	}
	if host == "" {
		host = "this machine"
	}
	if db == "" {
		return host
	}
	return db + " on " + host
}

// serverDatabaseName is how the window names a database on a server: its
// name, from postgres://role@host:port/db.
func serverDatabaseName(name string) string {
	if u, err := url.Parse(name); err == nil && strings.Trim(u.Path, "/") != "" {
		return strings.Trim(u.Path, "/")
	}
	return name
}
