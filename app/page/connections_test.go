package page_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"querent/app/page"
	"querent/engine"
	"querent/engine/postgres/pgtest"
)

// TestConnectToPostgres: the "Connect to PostgreSQL" services on a real
// server — Test connection names the role and its rights, Connect opens
// the database read-only, the connection is saved without its password,
// the superuser is refused unless Settings allow it (then warned about),
// and refused again when Settings ask for a read-only role — and no file
// of the data folder holds a password.
func TestConnectToPostgres(t *testing.T) {
	srv, _ := pgtest.StartChinook(t)
	svc, rec := newServices(t)
	reader := engine.Connection{DBType: "postgresql", Host: "127.0.0.1", Port: srv.Port, Database: "chinook",
		Username: pgtest.Reader, Password: pgtest.ReaderPassword, SSL: "disable"}
	test, err := svc.Datasets.TestConnection(reader)
	if err != nil {
		t.Fatal(err)
	}
	facts := map[string]string{}
	for _, f := range test.Facts {
		facts[f.Name] = f.Value
	}
	if test.Tables != 11 || facts["role"] != pgtest.Reader || !strings.HasPrefix(facts["server version"], "PostgreSQL") || len(test.Warnings) != 0 {
		t.Errorf("test connection: %+v", test)
	}
	if cur, _ := svc.Datasets.Current(); cur != nil {
		t.Error("Test connection opened the database")
	}
	info, err := svc.Datasets.Connect(page.ConnectRequest{Connection: reader, Save: true})
	if err != nil {
		t.Fatal(err)
	}
	want := "postgres://" + pgtest.Reader + "@127.0.0.1:" + strconv.Itoa(srv.Port) + "/chinook"
	if info.Dialect != "postgresql" || info.Server != want || info.Name != "chinook" || info.Path != "" || !info.ReadOnly || info.Tables != 11 ||
		rec.events["dataset:changed"] != 1 {
		t.Errorf("info %+v", info)
	}
	res, err := svc.Results.Run("SELECT count(*) AS n FROM invoice")
	if err != nil || len(res.Results.Values) != 1 {
		t.Fatalf("run: %v %+v", err, res)
	}
	saved, _ := svc.Datasets.SavedConnections()
	if len(saved) != 1 || saved[0].Name != "chinook on 127.0.0.1" || saved[0].Username != pgtest.Reader || saved[0].Port != srv.Port {
		t.Errorf("saved %+v", saved)
	}

	// The superuser: refused by default, the hint naming the setting, the
	// open database left as it was; connected with a warning once allowed.
	super := reader
	super.Username, super.Password = pgtest.SuperUser, pgtest.SuperPassword
	for _, try := range []func() error{
		func() error { _, err := svc.Datasets.TestConnection(super); return err },
		func() error { _, err := svc.Datasets.Connect(page.ConnectRequest{Connection: super}); return err },
	} {
		err := try()
		e := engine.AsError(err)
		if engine.ErrorCode(err) != engine.CodeDatabase || !strings.Contains(e.Message, "is a superuser") || !strings.Contains(e.Hint, "Settings") ||
			strings.Contains(e.Message+e.Hint, pgtest.SuperPassword) {
			t.Errorf("the superuser by default: %v (hint %q)", err, e.Hint)
		}
	}
	if cur, _ := svc.Datasets.Current(); cur == nil || cur.Server != want {
		t.Errorf("a refused connection changed the open database: %+v", cur)
	}
	set, _ := svc.Settings.Get()
	if set.AllowSuperuser {
		t.Fatal("superusers are allowed by default")
	}
	set.AllowSuperuser = true
	if _, err := svc.Settings.Save(*set); err != nil {
		t.Fatal(err)
	}
	info, err = svc.Datasets.Connect(page.ConnectRequest{Connection: super})
	if err != nil {
		t.Fatal(err)
	}
	if len(info.Warnings) == 0 || !strings.Contains(strings.ToLower(strings.Join(info.Warnings, " ")), "superuser") {
		t.Errorf("the superuser's warnings: %q", info.Warnings)
	}
	set, _ = svc.Settings.Get()
	set.RequireReadOnlyRole = true
	if _, err := svc.Settings.Save(*set); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Datasets.TestConnection(super); engine.ErrorCode(err) != engine.CodeDatabase || !strings.Contains(engine.AsError(err).Hint, "CREATE ROLE") {
		t.Errorf("the superuser with the setting on: %v", err)
	}
	if _, err := svc.Datasets.Connect(page.ConnectRequest{Connection: reader}); err != nil {
		t.Errorf("the reader with the setting on: %v", err)
	}
	if _, err := svc.Datasets.ForgetConnection("chinook on 127.0.0.1"); err != nil {
		t.Fatal(err)
	}
	if saved, _ := svc.Datasets.SavedConnections(); len(saved) != 0 {
		t.Errorf("forgotten, still saved: %+v", saved)
	}
	filepath.Walk(os.Getenv("QUERENT_DATA_DIR"), func(path string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode().IsRegular() {
			b, _ := os.ReadFile(path)
			if strings.Contains(string(b), pgtest.ReaderPassword) || strings.Contains(string(b), pgtest.SuperPassword) {
				t.Errorf("%s holds a password", path)
			}
		}
		return nil
	})
}
