package cli

import (
	"context"
	"strings"
	"testing"
	"time"

	"querent/engine"
)

// Every command that connects passes --require-readonly-role and
// --allow-superuser (and ask --input's "allow_superuser") to the opener;
// without them a PostgreSQL superuser is refused by the engine.
func TestRoleFlagsReachTheOpener(t *testing.T) {
	var got []engine.OpenOptions
	refuse := engine.Errorf(engine.CodeDatabase, "recorded, not opened")
	c := &CLI{Version: "test",
		Open: func(ctx context.Context, target string, opts engine.OpenOptions) (engine.Database, error) {
			got = append(got, opts)
			return nil, refuse
		},
		Connect: func(ctx context.Context, conn engine.Connection, opts engine.OpenOptions) (engine.Database, error) {
			got = append(got, opts)
			return nil, refuse
		},
		Serve: func(ctx context.Context, target string, opts engine.OpenOptions, addr string, ready func(string)) error {
			got = append(got, opts)
			return refuse
		},
		Model: func(host string, timeout time.Duration) (engine.Model, error) { return nil, refuse }}
	pg := `"connection": {"db_type": "postgresql", "host": "db.example", "database": "sales", "username": "postgres"}`
	for _, tc := range []struct {
		args  []string
		stdin string
		want  engine.OpenOptions
	}{
		{[]string{"sql", "SELECT 1"}, "", engine.OpenOptions{}},
		{[]string{"sql", "--allow-superuser", "SELECT 1"}, "", engine.OpenOptions{AllowSuperuser: true}},
		{[]string{"sql", "--require-readonly-role", "--allow-superuser", "SELECT 1"}, "", engine.OpenOptions{RequireReadOnlyRole: true, AllowSuperuser: true}},
		{[]string{"schema", "--allow-superuser"}, "", engine.OpenOptions{AllowSuperuser: true}},
		{[]string{"ask", "--allow-superuser", "How many?"}, "", engine.OpenOptions{AllowSuperuser: true}},
		{[]string{"export", "--allow-superuser", "--sql", "SELECT 1", "--out", "/nonexistent/x.csv"}, "", engine.OpenOptions{AllowSuperuser: true}},
		{[]string{"eval", "--allow-superuser", "--gold", "chinook", "--predictions", "/dev/null"}, "", engine.OpenOptions{AllowSuperuser: true}},
		{[]string{"eval", "init", "--allow-superuser", "--db", "x.db", "--out", "/nonexistent/g.toml"}, "", engine.OpenOptions{AllowSuperuser: true}},
		{[]string{"mcp", "--allow-superuser", "--require-readonly-role"}, "", engine.OpenOptions{RequireReadOnlyRole: true, AllowSuperuser: true}},
		{[]string{"mcp"}, "", engine.OpenOptions{}},
		{[]string{"serve", "--allow-superuser"}, "", engine.OpenOptions{AllowSuperuser: true}},
		{[]string{"ask", "--input", "-"}, `{"question": "SELECT 1", ` + pg + `}`, engine.OpenOptions{}},
		{[]string{"ask", "--input", "-"}, `{"question": "SELECT 1", "allow_superuser": true, ` + pg + `}`, engine.OpenOptions{AllowSuperuser: true}},
		{[]string{"ask", "--input", "-"}, `{"question": "SELECT 1", "allow_superuser": false, ` + pg + `}`, engine.OpenOptions{}},
		{[]string{"ask", "--allow-superuser", "--input", "-"}, `{"question": "SELECT 1", ` + pg + `}`, engine.OpenOptions{AllowSuperuser: true}},
	} {
		got = nil
		code, out, errs := runWith(t, c, tc.stdin, tc.args...)
		if len(got) != 1 || got[0].RequireReadOnlyRole != tc.want.RequireReadOnlyRole || got[0].AllowSuperuser != tc.want.AllowSuperuser {
			t.Errorf("%v: options %+v, want %+v (exit %d: %.200s %.200s)", tc.args, got, tc.want, code, out, errs)
		}
	}
	// A request whose allow_superuser is not a boolean is a usage error.
	got = nil
	code, out, _ := runWith(t, c, `{"question": "SELECT 1", "allow_superuser": "yes", `+pg+`}`, "ask", "--input", "-")
	if code != 2 || len(got) != 0 || !strings.Contains(out, "allow_superuser") {
		t.Errorf("allow_superuser \"yes\": exit %d, opened %d, %s", code, len(got), out)
	}
	// Every command that takes --require-readonly-role documents
	// --allow-superuser beside it.
	for _, cmd := range []string{"sql", "schema", "ask", "export", "eval", "mcp", "serve"} {
		_, out, _ := runWith(t, c, "", cmd, "--help")
		if !strings.Contains(out, "-require-readonly-role") || !strings.Contains(out, "-allow-superuser") {
			t.Errorf("%s --help lacks the role flags:\n%s", cmd, out)
		}
	}
}
