package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	buildOnce sync.Once
	buildExe  string
	buildErr  error
)

// build compiles the console binary once for the tests of this package.
func build(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "querent-bin-")
		if err != nil {
			buildErr = err
			return
		}
		buildExe = filepath.Join(dir, "querent")
		if runtime.GOOS == "windows" {
			buildExe += ".exe"
		}
		cmd := exec.Command("go", "build", "-o", buildExe, ".")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return buildExe
}

func TestMain(m *testing.M) {
	// Keep the binary's data folder out of the home folder.
	data, err := os.MkdirTemp("", "querent-data-")
	if err != nil {
		panic(err)
	}
	os.Setenv("QUERENT_DATA_DIR", data)
	code := m.Run()
	os.RemoveAll(data)
	if buildExe != "" {
		os.RemoveAll(filepath.Dir(buildExe))
	}
	os.Exit(code)
}

func TestBinary(t *testing.T) {
	exe := build(t)
	run := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		cmd := exec.Command(exe, args...)
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode(), out.String(), errb.String()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0, out.String(), errb.String()
	}
	code, out, _ := run("sql", "--format", "json", "SELECT count(*) AS n FROM Invoice")
	var doc struct {
		Results []map[string]any `json:"results"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &doc) != nil || doc.Results[0]["n"] != 412.0 {
		t.Fatalf("demo query: exit %d, %s", code, out)
	}
	if code, _, errs := run("sql", "UPDATE Invoice SET Total = 0"); code != 1 || !strings.Contains(errs, "refused") {
		t.Errorf("refused: exit %d, %s", code, errs)
	}
	if code, _, errs := run("sql", "--db", "/no/such/file.db", "SELECT 1"); code != 2 || !strings.Contains(errs, "no such file") {
		t.Errorf("missing: exit %d, %s", code, errs)
	}
	// A user's file: checked once, remembered in the data folder, untouched.
	dir := t.TempDir()
	src, err := os.ReadFile("../../engine/sqlite/demo/Chinook_Sqlite.sqlite")
	if err != nil {
		t.Fatal(err)
	}
	mine := filepath.Join(dir, "mine.db")
	os.WriteFile(mine, src, 0o644)
	for i := 0; i < 2; i++ {
		if code, _, errs := run("sql", "--db", mine, "SELECT count(*) FROM Album"); code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
	}
	cache, err := os.ReadFile(filepath.Join(os.Getenv("QUERENT_DATA_DIR"), "checked-files.json"))
	if err != nil || !strings.Contains(string(cache), "mine.db") {
		t.Errorf("the check cache: %v %s", err, cache)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files beside the database: %v", entries)
	}
	got, _ := os.ReadFile(mine)
	if !bytes.Equal(got, src) {
		t.Error("the database changed")
	}
}

func TestInterruptExits130(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGINT on Windows")
	}
	exe := build(t)
	cmd := exec.Command(exe, "sql", "--timeout", "60s", "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM r) SELECT count(*) FROM r")
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond)
	cmd.Process.Signal(os.Interrupt)
	start := time.Now()
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Fatalf("exit: %v, want 130; stderr %s", err, errb.String())
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("took %s to stop", d)
	}
	if !strings.Contains(errb.String(), "cancelled") {
		t.Errorf("stderr %q", errb.String())
	}
}
