package postgres

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"
	"github.com/jackc/pgx/v5/pgproto3"

	"querent/engine"
	"querent/engine/adapter"
	"querent/engine/files"
	"querent/engine/postgres/pgparse"
	"querent/engine/words"
)

// Options tune how a server is connected to and bounded. The zero value
// gives the defaults.
type Options struct {
	// RequireReadOnlyRole refuses to connect as a role that may do more
	// than read: a superuser, a role that may write to a table or a
	// sequence, create objects, or reach the server's files and programs
	// (RoleInfo.ReadOnly).
	RequireReadOnlyRole bool
	// AllowSuperuser lets a superuser connect (with a warning); without it,
	// a superuser is refused: it reads and writes the server's files and
	// runs programs on it. Even a superuser's queries never reach the
	// functions and relations that read or change the server.
	AllowSuperuser bool
	// ConnectTimeout bounds connecting (default 10 s, or the connection
	// string's connect_timeout).
	ConnectTimeout time.Duration
	// MaxMemory is the memory ceiling of one statement (default 1 GB); the
	// row and result caps below are derived from it when they are not set.
	MaxMemory int64
	// MaxResultBytes bounds the memory a result may take (default an eighth
	// of MaxMemory: 128 MB).
	MaxResultBytes int64
	// MaxRowBytes bounds one row of a result, checked before it is read
	// from the network (default a sixteenth of MaxMemory: 64 MB).
	MaxRowBytes int64
	// LockTimeout bounds the wait for a lock (default 5 s, at most the
	// statement's timeout): a query waits on a table that another session
	// is altering instead of failing at once.
	LockTimeout time.Duration
	// LargeTableRows is the row count from which query-plan hints speak of
	// full scans and sorts (default 10,000).
	LargeTableRows int64
	// ExactCountMaxRows is the estimated size up to which schema
	// introspection counts a table's rows exactly (default 100,000).
	ExactCountMaxRows int64
	// SchemaTableBudget bounds each step of schema introspection on one
	// table: counting, sampling, finding distinct values (default 250 ms,
	// as statement_timeout).
	SchemaTableBudget time.Duration
	// SchemaBudget bounds those steps for all tables together (default 3 s);
	// past it, tables get estimated counts and no samples, with a note.
	SchemaBudget time.Duration
	// MaxTempFiles bounds the temporary files of one statement of a
	// superuser's session (temp_file_limit; default 2 GB). PostgreSQL lets
	// only a superuser set it: for other roles it is the server's own
	// setting (unbounded by default).
	MaxTempFiles int64
	// ParserCacheDir is where PostgreSQL's parser keeps its compiled code
	// (default the "cache/pgparse2" folder of files.DataDir(); "-" keeps
	// none, and every process compiles it again, about 1 s).
	ParserCacheDir string
}

// DefaultMaxMemory is the default memory ceiling of one statement.
const DefaultMaxMemory = 1 << 30

func (o Options) withDefaults() Options {
	if o.ConnectTimeout <= 0 {
		o.ConnectTimeout = 10 * time.Second
	}
	if o.MaxMemory <= 0 {
		o.MaxMemory = DefaultMaxMemory
	}
	if o.MaxResultBytes <= 0 {
		o.MaxResultBytes = o.MaxMemory / 8
	}
	if o.MaxRowBytes <= 0 {
		o.MaxRowBytes = o.MaxMemory / 16
	}
	if o.LockTimeout <= 0 {
		o.LockTimeout = 5 * time.Second
	}
	if o.LargeTableRows <= 0 {
		o.LargeTableRows = 10_000
	}
	if o.ExactCountMaxRows <= 0 {
		o.ExactCountMaxRows = 100_000
	}
	if o.SchemaTableBudget <= 0 {
		o.SchemaTableBudget = 250 * time.Millisecond
	}
	if o.SchemaBudget <= 0 {
		o.SchemaBudget = 3 * time.Second
	}
	if o.MaxTempFiles <= 0 {
		o.MaxTempFiles = 2 << 30
	}
	return o
}

// Session bounds set in the startup packet: they hold for Querent's own
// catalog queries too (every run sets its own with SET LOCAL).
const (
	sessionStatementTimeout = 30 * time.Second
	idleInTransaction       = 10 * time.Second
	// cancelGrace is how long a cancelled call waits for the server to
	// answer the cancel request before it drops the connection.
	cancelGrace = 100 * time.Millisecond
)

// DB is one guarded connection to a PostgreSQL database. It is safe for use
// by several goroutines; calls wait their turn (or their context's end).
type DB struct {
	engine.SensitiveHolder
	// attnames names the columns of the relations results came from, by
	// oid and column number (originsLocked).
	attnames map[uint32]map[uint16]string
	cfg      *pgconn.Config // holds the password: never printed
	opts     Options
	name     string
	lock     chan struct{}
	conn     *pgconn.PgConn // under lock; nil or closed: connect again
	role     RoleInfo
	server   serverInfo
	warnings []words.Sentence

	catalog   *catalog // the facts of the server check, kept across connections
	noticeBox noticeBox

	// connectedAddr is the host:port (or socket) of the connection string's
	// hosts that answered last.
	connectedAddr string
	// sessionSQL sets the session's settings after connecting and after
	// every DISCARD ALL (sessionSettings); "" when there are none.
	sessionSQL string

	names   *adapter.Names // under lock
	namesAt time.Time
	types   map[typeKey]string // under lock

	schemaMu sync.Mutex
	schema   *engine.Schema

	snapMu   sync.Mutex
	snapshot time.Time

	// trace, when set (by tests), receives every protocol message of the
	// connections, to check that the simple protocol is never used.
	trace io.Writer
}

var (
	_ engine.Database = (*DB)(nil)
	_ engine.Origin   = (*DB)(nil)
)

// serverInfo is what the server says about itself and the session.
type serverInfo struct {
	version    string // "15.18 (Debian 15.18-0+deb12u1)"
	versionNum int    // 150018
	database   string
	user       string
	searchPath []string // current_schemas(false)
	workMem    int64    // work_mem in bytes
}

// Open connects to the database that conn names: a URL
// (postgres://user@host:5432/db?sslmode=require) or libpq's key=value form
// (host=… dbname=…). What the string leaves out comes from PGHOST, PGPORT,
// PGUSER, PGPASSWORD, PGDATABASE, PGSERVICE, PGSSLMODE… and the password
// from ~/.pgpass, as libpq does. Every failure is an *engine.Error with code
// "database" that says what is wrong and what to do, and never holds the
// password.
func Open(ctx context.Context, conn string, opts Options) (*DB, error) {
	opts = opts.withDefaults()
	warmParser(opts)
	cfg, err := pgconn.ParseConfig(conn)
	if err != nil {
		return nil, parseConfigError(err)
	}
	return open(ctx, cfg, opts)
}

// ConnString builds libpq's key=value form of c, every value quoted so
// that no field can add a parameter. It holds the password: never show it.
func ConnString(c engine.Connection) string {
	var parts []string
	add := func(k, v string) {
		if v != "" {
			parts = append(parts, k+"='"+strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(v)+"'")
		}
	}
	add("host", c.Host)
	if c.Port > 0 {
		add("port", strconv.Itoa(c.Port))
	}
	add("dbname", c.Database)
	add("user", c.Username)
	add("password", c.Password)
	add("sslmode", string(c.SSL))
	return strings.Join(parts, " ")
}

// OpenConnection connects as Open does, to the database c describes.
func OpenConnection(ctx context.Context, c engine.Connection, opts Options) (*DB, error) {
	if t := strings.ToLower(c.DBType); t != "" && t != "postgresql" && t != "postgres" && t != "pg" {
		return nil, engine.Errorf(engine.CodeUsage, "db_type %q is not postgresql", c.DBType).WithHint(`use "db_type": "postgresql"`)
	}
	if c.Port < 0 || c.Port > 65535 {
		return nil, engine.Errorf(engine.CodeUsage, "port %d is not a TCP port", c.Port).WithHint("PostgreSQL listens on 5432 unless told otherwise")
	}
	return Open(ctx, ConnString(c), opts)
}

// LooksLikeConnString reports whether s is a PostgreSQL connection string
// rather than a file's path: a postgres:// or postgresql:// URL, or libpq's
// key=value form with a host, dbname, service or user.
func LooksLikeConnString(s string) bool {
	l := strings.ToLower(strings.TrimSpace(s))
	if strings.HasPrefix(l, "postgres://") || strings.HasPrefix(l, "postgresql://") {
		return true
	}
	return reKeyValue.MatchString(l)
}

var reKeyValue = regexp.MustCompile(`(^|\s)(host|hostaddr|dbname|service|user|port)\s*=`)

// DisplayName returns how conn is shown to the user, without connecting:
// postgres://user@host:port/database, never the password. Environment
// defaults apply as in Open.
func DisplayName(conn string) (string, error) {
	cfg, err := pgconn.ParseConfig(conn)
	if err != nil {
		return "", parseConfigError(err)
	}
	return displayName(cfg), nil
}

func displayName(cfg *pgconn.Config) string {
	host := shownField(cfg.Host, cfg.Password)
	if strings.HasPrefix(host, "/") || (len(host) > 2 && host[1] == ':' && (host[2] == '\\' || host[2] == '/')) {
		host = "[" + host + "]" // a Unix socket's folder
	} else if strings.Contains(host, ":") {
		host = "[" + host + "]" // IPv6
	}
	return fmt.Sprintf("postgres://%s@%s:%d/%s", shownField(cfg.User, cfg.Password), host, cfg.Port, shownField(cfg.Database, cfg.Password))
}

// shownField is a host, database or user name as Querent shows it: a
// password written into it by mistake (a pasted URL with user:password@, a
// key=value string, the password itself) is masked.
func shownField(s, password string) string {
	if s == "" {
		return s
	}
	s = scrub(s, password)
	if i := strings.LastIndexByte(s, '@'); i >= 0 && strings.ContainsAny(s[:i], ":/") {
		s = s[i+1:] // user:password@host pasted into one field
	}
	return s
}

// WarmParser starts making PostgreSQL's parser ready in the background
// (compiling it, or loading it from opts.ParserCacheDir): Open does it too,
// while it connects; a face that will connect soon can call it earlier.
func WarmParser(opts Options) { warmParser(opts) }

func warmParser(opts Options) {
	dir := opts.ParserCacheDir
	if dir == "" {
		if d, err := files.DataDir(); err == nil {
			// pgparse2: the code compiled without debug information, which
			// loads in 18 ms instead of 0.27 s (wazero keys its cache by the
			// module alone, so the first layout's folder is not reused).
			dir = filepath.Join(d, "cache", "pgparse2")
			os.RemoveAll(filepath.Join(d, "cache", "pgparse"))
		}
	}
	if dir == "-" {
		dir = ""
	}
	// Compiling PostgreSQL's parser (or loading it from the cache) runs
	// while Open connects: the first Validate waits only for what is left.
	pgparse.Warm(dir)
}

func open(ctx context.Context, cfg *pgconn.Config, opts Options) (*DB, error) {
	d := &DB{cfg: cfg, opts: opts, lock: make(chan struct{}, 1), types: map[typeKey]string{}, catalog: newCatalog()}
	d.name = displayName(cfg)
	if cfg.ConnectTimeout == 0 || cfg.ConnectTimeout > opts.ConnectTimeout {
		cfg.ConnectTimeout = opts.ConnectTimeout
	}
	if cfg.RuntimeParams == nil {
		cfg.RuntimeParams = map[string]string{}
	}
	if cfg.RuntimeParams["application_name"] == "" {
		cfg.RuntimeParams["application_name"] = "querent"
	}
	// Startup parameters override the role's and the database's own
	// settings: every transaction of the session is read-only, including
	// the implicit ones of Parse/Describe and of Querent's catalog queries.
	cfg.RuntimeParams["default_transaction_read_only"] = "on"
	cfg.RuntimeParams["statement_timeout"] = ms(sessionStatementTimeout)
	cfg.RuntimeParams["lock_timeout"] = ms(opts.LockTimeout)
	cfg.RuntimeParams["idle_in_transaction_session_timeout"] = ms(idleInTransaction)
	// One reading of the text: the guard's parser reads strings with
	// standard_conforming_strings on and the text as UTF-8; the startup
	// packet's values win over the role's, the database's and options'
	// (-c …, PGOPTIONS), and checkSession refuses a session that does not
	// keep them.
	cfg.RuntimeParams["standard_conforming_strings"] = "on"
	cfg.RuntimeParams["client_encoding"] = "UTF8"
	// Which of the connection string's hosts answered (for the provenance),
	// and target_session_attrs checked with the extended protocol (pgx's
	// own checks use the simple one, and its read-write check can never
	// pass on Querent's read-only sessions).
	tsa, err := sessionAttrs(cfg)
	if err != nil {
		return nil, err
	}
	// pgconn dials with the same function for its cancel requests, which
	// may run beside a connect (a timeout's cancel, a closing connection's):
	// the address is kept under a lock.
	dial := cfg.DialFunc
	var (
		dialMu sync.Mutex
		dialed string
	)
	cfg.DialFunc = func(ctx context.Context, network, addr string) (net.Conn, error) {
		dialMu.Lock()
		dialed = addr
		dialMu.Unlock()
		return dial(ctx, network, addr)
	}
	cfg.ValidateConnect = func(ctx context.Context, c *pgconn.PgConn) error {
		if err := validateSessionAttrs(ctx, c, tsa); err != nil {
			return err
		}
		dialMu.Lock()
		d.connectedAddr = dialed
		dialMu.Unlock()
		return nil
	}
	// A row larger than the cap is refused while its length is read, before
	// it is in memory.
	cfg.MaxProtocolMessageBodyLen = int(min(opts.MaxRowBytes+(1<<20), 1<<30))
	// A cancelled context sends the server a cancel request at once; if the
	// server has not answered within cancelGrace, the connection is closed.
	cfg.BuildContextWatcherHandler = func(c *pgconn.PgConn) ctxwatch.Handler {
		return &cancelHandler{conn: c, grace: cancelGrace}
	}
	// The server's reading of a statement comes as a LOG notice while it
	// is checked (servercheck.go); other notices are not kept.
	cfg.OnNotice = d.noticeBox.handle
	cfg.OnNotification = nil
	if err := d.connect(ctx); err != nil {
		return nil, err
	}
	if err := d.inspect(ctx); err != nil {
		d.Close()
		return nil, err
	}
	if d.role.Superuser && !opts.AllowSuperuser {
		d.Close()
		return nil, dbSay(d.name, words.New("role.superuser_refused", words.Value(d.role.Name))).SayHint(
			words.New("role.superuser_refused_hint", words.Value(readOnlyRoleSQL(d.server.database, d.server.searchPath)), words.AllowSuperuser))
	}
	if opts.RequireReadOnlyRole && !d.role.ReadOnly {
		d.Close()
		return nil, dbSay(d.name, words.New("role.readonly_required", words.Value(d.role.Name), d.role.summary())).SayHint(
			words.New("role.readonly_required_hint", words.Value(readOnlyRoleSQL(d.server.database, d.server.searchPath))))
	}
	if w := d.role.WarningWords; !w.IsZero() {
		d.warnings = append(d.warnings, w)
	}
	if w := tlsWarning(cfg, d.conn); !w.IsZero() {
		d.warnings = append(d.warnings, w)
	}
	return d, nil
}

// sessionSettings are the settings only the server's version or the role
// could tell, read from what the server reported at startup: PostgreSQL 14
// and later notice a client gone mid-statement
// (client_connection_check_interval: a Querent killed without a word
// leaves no statement running past the next check), and a superuser's
// temporary files are bounded (temp_file_limit, which only a superuser may
// set). They are set after connecting and again after every DISCARD ALL
// (which resets a session's settings to its startup values): one statement
// more in a round trip that is there anyway, rather than a second
// connection to put them in the startup packet.
func (d *DB) sessionSettings(conn *pgconn.PgConn) string {
	var sets []string
	if v, _ := strconv.Atoi(conn.ParameterStatus("server_version_num")); v >= 140000 || versionAtLeast(conn.ParameterStatus("server_version"), 14) {
		sets = append(sets, "pg_catalog.set_config('client_connection_check_interval', '"+ms(clientCheckInterval)+"', false)")
	}
	if conn.ParameterStatus("is_superuser") == "on" {
		sets = append(sets, "pg_catalog.set_config('temp_file_limit', '"+strconv.FormatInt(d.opts.MaxTempFiles>>10, 10)+"kB', false)")
	}
	if len(sets) == 0 {
		return ""
	}
	return "SELECT " + strings.Join(sets, ", ")
}

// versionAtLeast reads the major version of server_version ("15.18 (Debian
// 15.18-0+deb12u1)").
func versionAtLeast(version string, major int) bool {
	end := strings.IndexFunc(version, func(r rune) bool { return r < '0' || r > '9' })
	if end < 0 {
		end = len(version)
	}
	v, err := strconv.Atoi(version[:end])
	return err == nil && v >= major
}

// clientCheckInterval is how often a server of PostgreSQL 14 or later
// checks, while it runs a statement, that Querent is still connected.
const clientCheckInterval = time.Second

// sessionAttrs reads which target_session_attrs the connection string
// asked for, from the check pgconn chose.
func sessionAttrs(cfg *pgconn.Config) (string, error) {
	if cfg.ValidateConnect == nil {
		return "any", nil
	}
	p := reflect.ValueOf(cfg.ValidateConnect).Pointer()
	for name, f := range map[string]pgconn.ValidateConnectFunc{
		"read-write": pgconn.ValidateConnectTargetSessionAttrsReadWrite, "read-only": pgconn.ValidateConnectTargetSessionAttrsReadOnly,
		"primary": pgconn.ValidateConnectTargetSessionAttrsPrimary, "standby": pgconn.ValidateConnectTargetSessionAttrsStandby,
		"prefer-standby": pgconn.ValidateConnectTargetSessionAttrsPreferStandby,
	} {
		if reflect.ValueOf(f).Pointer() == p {
			return name, nil
		}
	}
	return "", engine.Errorf(engine.CodeDatabase, "cannot tell which target_session_attrs the connection string asks for").WithHint(
		"use target_session_attrs=any, primary, standby or prefer-standby")
}

// validateSessionAttrs checks the server against target_session_attrs
// with the extended protocol. Every session of Querent's is read-only, so
// read-write means a server that takes writes (primary) and read-only any
// server; prefer-standby keeps pgx's own check, whose preference only it
// can express (a fixed query of its own, before any other).
func validateSessionAttrs(ctx context.Context, c *pgconn.PgConn, tsa string) error {
	switch tsa {
	case "any", "read-only":
		return nil
	case "prefer-standby":
		return pgconn.ValidateConnectTargetSessionAttrsPreferStandby(ctx, c)
	}
	r := c.ExecParams(ctx, "SELECT pg_catalog.pg_is_in_recovery()", nil, nil, nil, nil).Read()
	if r.Err != nil {
		return r.Err
	}
	standby := len(r.Rows) == 1 && len(r.Rows[0]) == 1 && string(r.Rows[0][0]) == "t"
	switch {
	case tsa == "standby" && !standby:
		return errPrimaryServer
	case (tsa == "primary" || tsa == "read-write") && standby:
		return errStandbyServer
	}
	return nil
}

var (
	errPrimaryServer = errors.New("the server is a primary, and target_session_attrs asks for a standby")
	errStandbyServer = errors.New("the server is a standby, and target_session_attrs asks for a primary (read-write)")
)

func ms(d time.Duration) string { return strconv.FormatInt(d.Milliseconds(), 10) }

// connect opens the connection (again, after one was closed).
func (d *DB) connect(ctx context.Context) error {
	conn, err := pgconn.ConnectConfig(ctx, d.cfg)
	if err != nil {
		return d.connectError(ctx, err)
	}
	if err := d.checkSession(conn); err != nil {
		conn.Close(ctx)
		return err
	}
	d.sessionSQL = d.sessionSettings(conn)
	if d.sessionSQL != "" {
		if err := conn.ExecParams(ctx, d.sessionSQL, nil, nil, nil, nil).Read().Err; err != nil {
			conn.Close(ctx)
			return d.connectError(ctx, err)
		}
	}
	if d.trace != nil {
		conn.Frontend().Trace(d.trace, pgproto3.TracerOptions{SuppressTimestamps: true})
	}
	d.conn = conn
	return nil
}

// setTrace sends every protocol message of this connection and the next
// ones to w (tests only: the startup exchange is never traced).
func (d *DB) setTrace(w io.Writer) {
	d.lock <- struct{}{}
	defer func() { <-d.lock }()
	d.trace = w
	if d.conn != nil {
		d.conn.Frontend().Trace(w, pgproto3.TracerOptions{SuppressTimestamps: true})
	}
}

// connLocked returns the open connection, connecting again when the last
// one was closed (a connection whose state became unknown is never reused).
func (d *DB) connLocked(ctx context.Context) (*pgconn.PgConn, error) {
	if d.conn != nil && !d.conn.IsClosed() {
		return d.conn, nil
	}
	if d.conn != nil {
		d.conn = nil
	}
	if err := d.connect(ctx); err != nil {
		return nil, err
	}
	return d.conn, nil
}

// cancelHandler is what a connection does when the context of a call ends:
// it sends the server a cancel request and gives it cancelGrace to answer
// before the connection's reads and writes fail. It is pgx's
// CancelRequestContextWatcherHandler without the 100 ms that one waits
// after the request, so that a stale cancel cannot reach the next statement
// on the same connection: Querent never reuses a cancelled connection.
type cancelHandler struct {
	conn  *pgconn.PgConn
	grace time.Duration
	done  chan struct{}
}

// HandleCancel implements ctxwatch.Handler.
func (h *cancelHandler) HandleCancel(context.Context) {
	h.done = make(chan struct{})
	_ = h.conn.Conn().SetDeadline(time.Now().Add(h.grace))
	go func() {
		defer close(h.done)
		ctx, cancel := context.WithTimeout(context.Background(), h.grace)
		defer cancel()
		_ = h.conn.CancelRequest(ctx)
	}()
}

// HandleUnwatchAfterCancel implements ctxwatch.Handler.
func (h *cancelHandler) HandleUnwatchAfterCancel() {
	<-h.done
	_ = h.conn.Conn().SetDeadline(time.Time{})
}

// dropConnLocked closes the connection: its state is unknown (a cancelled
// or broken exchange), and a stale cancel request could reach a later query.
func (d *DB) dropConnLocked() {
	if d.conn == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	d.conn.Close(ctx)
	d.conn = nil
}

// withLock runs f holding the connection, or returns when ctx ends first.
func (d *DB) withLock(ctx context.Context, f func() error) error {
	return adapter.WithLock(ctx, d.lock, f)
}

// Dialect names the SQL dialect: "postgresql".
func (d *DB) Dialect() string { return "postgresql" }

// Name is the database as shown to the user: postgres://user@host:port/db,
// never the password.
func (d *DB) Name() string { return d.name }

// Warnings are what the user should know about this connection: a role
// that may do more than read, a connection to another machine that is not
// encrypted.
func (d *DB) Warnings() []string {
	out := make([]string, len(d.warnings))
	for i, w := range d.warnings {
		out[i] = words.English(w)
	}
	return out
}

// WarningWords are the warnings in parts, for the faces that say them in
// their language (engine.WarningSayer).
func (d *DB) WarningWords() []words.Sentence { return append([]words.Sentence(nil), d.warnings...) }

// Role says who the connection is and what that role may do.
func (d *DB) Role() RoleInfo { return d.role }

// Provenance names where the answers come from, for exports, the history
// and eval reports: never the password.
type Provenance struct {
	// Server is host:port (or the Unix socket's folder and port).
	Server string `json:"server"`
	// Database is the database's name.
	Database string `json:"database"`
	// Role is the role the queries run as.
	Role string `json:"role"`
	// ServerVersion is the server's version, e.g. "15.18 (Debian 15.18-0+deb12u1)".
	ServerVersion string `json:"server_version"`
	// SnapshotTime is the server's clock when the last run's snapshot was
	// taken (every run reads one consistent snapshot); zero before any run.
	SnapshotTime time.Time `json:"snapshot_time"`
}

// String writes the provenance on one line.
func (p Provenance) String() string {
	s := fmt.Sprintf("PostgreSQL %s at %s, database %s, role %s", p.ServerVersion, p.Server, p.Database, p.Role)
	if !p.SnapshotTime.IsZero() {
		s += ", snapshot of " + p.SnapshotTime.UTC().Format(time.RFC3339Nano)
	}
	return s
}

// Provenance returns where the last answer came from.
func (d *DB) Provenance() Provenance {
	d.snapMu.Lock()
	snap := d.snapshot
	d.snapMu.Unlock()
	return Provenance{Server: d.serverAddr(), Database: d.server.database, Role: d.server.user,
		ServerVersion: d.server.version, SnapshotTime: snap}
}

// serverAddr is host:port of the server that answered: with a list of
// hosts (host=a,b or fallbacks), the one Querent connected to.
func (d *DB) serverAddr() string {
	host, port := shownField(d.cfg.Host, d.cfg.Password), strconv.Itoa(int(d.cfg.Port))
	if len(d.cfg.Fallbacks) > 0 && d.connectedAddr != "" {
		addr := d.connectedAddr
		if dir, file := filepath.Split(addr); strings.HasPrefix(file, ".s.PGSQL.") {
			host, port = filepath.Clean(dir), strings.TrimPrefix(file, ".s.PGSQL.")
		} else if h, p, err := net.SplitHostPort(addr); err == nil {
			host, port = h, p
		}
	}
	if strings.Contains(host, ":") && !strings.HasPrefix(host, "[") {
		host = "[" + host + "]"
	}
	return host + ":" + port
}

// Origin is Provenance as the engine's facts (engine.Origin), for the
// provenance of exports.
func (d *DB) Origin() []engine.Fact {
	p := d.Provenance()
	facts := []engine.Fact{{Name: "server", Value: p.Server}, {Name: "database name", Value: p.Database},
		{Name: "role", Value: p.Role}, {Name: "server version", Value: "PostgreSQL " + p.ServerVersion}}
	if !p.SnapshotTime.IsZero() {
		facts = append(facts, engine.Fact{Name: "snapshot time", Value: p.SnapshotTime.Local().Format("2006-01-02 15:04:05.000 -07:00 MST")})
	}
	return facts
}

// Close closes the connection.
func (d *DB) Close() error {
	d.lock <- struct{}{}
	defer func() { <-d.lock }()
	d.dropConnLocked()
	return nil
}

// dbSay is dbError for a message said in parts (package words).
func dbSay(shown string, message words.Sentence) *engine.Error {
	if shown != "" {
		message = words.Seq(words.Value(shown+": "), message)
	}
	return engine.Say(engine.CodeDatabase, message)
}

func dbError(shown, format string, args ...any) *engine.Error {
	e := engine.Errorf(engine.CodeDatabase, format, args...)
	if shown != "" {
		e.Message = shown + ": " + e.Message
	}
	return e
}

// secretError keeps the text of an underlying error, scrubbed of the
// password, without the error itself (which a face might log whole).
type secretError struct{ text string }

// Error returns the scrubbed text.
func (e *secretError) Error() string { return e.text }

// scrub removes the password (as written and URL-encoded) and anything that
// looks like one from text.
func scrub(text, password string) string {
	if len(password) >= 3 {
		text = strings.ReplaceAll(text, password, "********")
		if esc := urlEscape(password); esc != password {
			text = strings.ReplaceAll(text, esc, "********")
		}
	}
	text = reURLPassword.ReplaceAllString(text, "$1********@")
	text = reKVPassword.ReplaceAllString(text, "password=********")
	return text
}

var (
	reURLPassword = regexp.MustCompile(`(://[^:/@\s]*:)[^@\s]*@`)
	reKVPassword  = regexp.MustCompile(`password\s*=\s*('(\\.|[^'])*'|\S+)`)
)

func urlEscape(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		if ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9') || c == '-' || c == '_' || c == '.' || c == '~' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// parseConfigError explains a connection string that cannot be read,
// without echoing it (it may hold a password).
func parseConfigError(err error) *engine.Error {
	msg := err.Error()
	// "cannot parse `<the string, partly redacted>`: <reason>"
	if i := strings.Index(msg, "`: "); i >= 0 && strings.HasPrefix(msg, "cannot parse `") {
		msg = msg[i+3:]
	}
	msg = scrub(msg, "")
	return engine.Errorf(engine.CodeDatabase, "cannot read the PostgreSQL connection string: %s", msg).WithErr(&secretError{msg}).WithHint(
		"write it as postgres://user@host:5432/database?sslmode=require, or as host=… port=5432 dbname=… user=…; leave the password out and put it in PGPASSWORD or ~/.pgpass")
}

// connectError explains a failed connection.
func (d *DB) connectError(ctx context.Context, err error) *engine.Error {
	if ctx.Err() != nil {
		return engine.AsError(ctx.Err())
	}
	pw := d.cfg.Password
	// A failed connection's messages may quote the host or the database.
	scrub := func(text, _ string) string { return d.scrubAll(text) }
	where := fmt.Sprintf("%s:%d", shownField(d.cfg.Host, pw), d.cfg.Port)
	cause := &secretError{d.scrubAll(err.Error())}
	if errors.Is(err, errStandbyServer) || errors.Is(err, errPrimaryServer) || errors.Is(err, pgconn.ErrReadOnlyConnection) {
		want := "a primary (target_session_attrs=primary or read-write)"
		if errors.Is(err, errPrimaryServer) {
			want = "a standby (target_session_attrs=standby)"
		}
		return dbError(d.name, "no server of the connection string is %s", want).WithErr(cause).WithHint(
			"Querent only reads, so any server will do: use target_session_attrs=any (the default), or name the server you want in host=")
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		msg := scrub(pgErr.Message, pw)
		switch pgErr.Code {
		case "28P01":
			return dbError(d.name, "the server refused the password for the role %s", d.cfg.User).WithErr(cause).WithHint(
				"check the password (in PGPASSWORD, ~/.pgpass or the connection string); Querent never shows it")
		case "28000":
			return dbError(d.name, "the server refused the connection: %s", msg).WithErr(cause).WithHint(
				"check the user name, and ask the server's administrator to allow this user, database and address in pg_hba.conf")
		case "3D000":
			return dbError(d.name, "%s", msg).WithErr(cause).WithHint(
				"check the database's name (psql -l lists the server's databases)")
		case "53300":
			return dbError(d.name, "the server has no free connection: %s", msg).WithErr(cause).WithHint("try again later, or ask the administrator for more connections")
		case "57P03":
			return dbError(d.name, "the server is not accepting connections yet: %s", msg).WithErr(cause).WithHint("try again in a moment")
		}
		return dbError(d.name, "the server refused the connection: %s (SQLSTATE %s)", msg, pgErr.Code).WithErr(cause).WithHint(
			"check the connection's user, database and options")
	}
	var nerr net.Error
	var oerr *net.OpError
	var dnsErr *net.DNSError
	text := scrub(err.Error(), pw)
	switch {
	case errors.As(err, &dnsErr):
		return dbError(d.name, "the host %s cannot be found (%s)", shownField(d.cfg.Host, pw), dnsErr.Err).WithErr(cause).WithHint("check the host's name")
	case strings.Contains(text, "connection refused"):
		return dbError(d.name, "nothing is listening at %s (connection refused)", where).WithErr(cause).WithHint(
			"check that PostgreSQL runs there and listens on that port and address (listen_addresses, port in postgresql.conf)")
	case errors.As(err, &nerr) && nerr.Timeout(), errors.Is(err, context.DeadlineExceeded), strings.Contains(text, "timeout"):
		return dbError(d.name, "the server at %s did not answer within %s", where, d.cfg.ConnectTimeout).WithErr(cause).WithHint(
			"check the host and port, and that no firewall is in the way")
	case strings.Contains(text, "server refused TLS connection"), strings.Contains(text, "SSL is not enabled"):
		return dbError(d.name, "the server at %s does not offer SSL, and the connection requires it", where).WithErr(cause).WithHint(
			"use sslmode=prefer or sslmode=disable for a server on this machine or a trusted network, or enable SSL on the server")
	case strings.Contains(text, "tls:"), strings.Contains(text, "x509:"):
		return dbError(d.name, "the secure connection to %s failed: %s", where, lastPart(text)).WithErr(cause).WithHint(
			"check the server's certificate (sslrootcert) or use sslmode=require, which encrypts without checking the certificate")
	case errors.As(err, &oerr):
		return dbError(d.name, "cannot connect to %s: %s", where, lastPart(text)).WithErr(cause).WithHint(
			"check the host and port, and that the server is running")
	}
	return dbError(d.name, "cannot connect: %s", lastPart(text)).WithErr(cause).WithHint("check the connection string, the server and the network")
}

// scrubAll removes the password from text, and the host, database and
// user names where they hold one by mistake.
func (d *DB) scrubAll(text string) string {
	pw := d.cfg.Password
	for _, f := range []string{d.cfg.Host, d.cfg.Database, d.cfg.User} {
		if shown := shownField(f, pw); f != "" && shown != f {
			text = strings.ReplaceAll(text, f, shown)
		}
	}
	return scrub(text, pw)
}

// lastPart keeps the end of a chain of "a: b: c" messages.
func lastPart(s string) string {
	if i := strings.LastIndex(s, ": "); i >= 0 && i+2 < len(s) {
		return s[i+2:]
	}
	return s
}

// tlsWarning warns about an unencrypted connection to another machine
// (the zero Sentence: no warning).
func tlsWarning(cfg *pgconn.Config, conn *pgconn.PgConn) words.Sentence {
	if conn == nil {
		return words.Sentence{}
	}
	if _, ok := conn.Conn().(*tls.Conn); ok {
		return words.Sentence{}
	}
	host := cfg.Host
	if strings.HasPrefix(host, "/") || host == "localhost" {
		return words.Sentence{}
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return words.Sentence{}
	}
	return inClear(host)
}

// inClear is the warning of a connection to host in clear.
func inClear(host string) words.Sentence {
	return words.New("tls.in_clear", words.Value(host), words.New("tls.sslmode_require"))
}

// isClosedErr reports an error that leaves the connection unusable.
func isClosedErr(err error) bool {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return strings.EqualFold(pgErr.Severity, "FATAL") || strings.HasPrefix(pgErr.Code, "08") || strings.HasPrefix(pgErr.Code, "57P")
	}
	return err != nil
}

// tooLongRow reports a row that went past the protocol's message limit.
func tooLongRow(err error) bool {
	var e *pgproto3.ExceededMaxBodyLenErr
	return errors.As(err, &e)
}
