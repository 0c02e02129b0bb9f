package web_test

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCallsNeverWriteTheOpenDatabase reproduces issue 11 §4 over HTTP:
// Export.Run and Datasets.Import aimed at the database the page shows as
// read-only are refused, and the file is unchanged.
func TestCallsNeverWriteTheOpenDatabase(t *testing.T) {
	srv, base := start(t)
	b, err := os.ReadFile("../../engine/sqlite/demo/Chinook_Sqlite.sqlite")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "mine.sqlite")
	os.WriteFile(db, b, 0o644)
	in := filepath.Join(t.TempDir(), "in.csv")
	os.WriteFile(in, []byte("a,b\n1,2\n"), 0o644)
	quoted, _ := json.Marshal(db)
	if code, m := call(t, base, srv.Token(), "Datasets.Open", "["+string(quoted)+"]", nil); code != 200 || m["error"] != nil {
		t.Fatalf("open: %d %v", code, m)
	}
	sum := fmt.Sprintf("%x", sha256.Sum256(b))
	inq, _ := json.Marshal(in)
	for _, c := range []struct{ target, body, code string }{
		{"Export.Run", `[{"sql": "SELECT 1", "out": ` + string(quoted) + `, "format": "csv", "force": true}]`, "export"},
		{"Export.Run", `[{"sql": "SELECT 1", "out": ` + string(quoted) + `, "format": "xlsx", "force": true}]`, "export"},
		{"Datasets.Import", `[{"target": ` + string(quoted) + `, "inputs": [` + string(inq) + `], "table": "injected"}]`, "import"},
	} {
		code, m := call(t, base, srv.Token(), c.target, c.body, nil)
		e, _ := m["error"].(map[string]any)
		if code != 200 || e == nil || e["type"] != c.code || !strings.Contains(fmt.Sprint(e["hint"]), "new file") && !strings.Contains(fmt.Sprint(e["hint"]), "another file name") {
			t.Errorf("%s %s: %d %v", c.target, c.body, code, m)
		}
		got, _ := os.ReadFile(db)
		if s := fmt.Sprintf("%x", sha256.Sum256(got)); s != sum {
			t.Fatalf("%s: the open database changed", c.target)
		}
	}
	if es, _ := os.ReadDir(dir); len(es) != 1 {
		t.Errorf("files beside the database: %v", es)
	}
}
