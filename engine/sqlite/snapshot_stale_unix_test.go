//go:build linux || darwin || freebsd

package sqlite

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSnapshotStrandedByKill: a process killed (SIGKILL) while it holds a
// snapshot strands the folder, a full copy of the user's file; the next
// snapshot made under the same root removes it. A live snapshot, in another
// process or this one, is never removed.
func TestSnapshotStrandedByKill(t *testing.T) {
	if path := os.Getenv("QUERENT_SNAPSHOT_CHILD"); path != "" {
		// The child: make a snapshot, say where, and wait to be killed.
		dir, _, _, err := MakeSnapshot(context.Background(), os.Getenv("QUERENT_SNAPSHOT_ROOT"), path)
		if err != nil || dir == "" {
			fmt.Printf("ERR %q %v\n", dir, err)
			os.Exit(1)
		}
		fmt.Printf("DIR %s\n", dir)
		time.Sleep(time.Hour)
		return
	}
	f := makeWALFixture(t, 3)
	root := t.TempDir()
	start := func() (*exec.Cmd, string) {
		cmd := exec.Command(os.Args[0], "-test.run=^TestSnapshotStrandedByKill$", "-test.count=1")
		cmd.Env = append(os.Environ(), "QUERENT_SNAPSHOT_CHILD="+f.write(t, f.wal), "QUERENT_SNAPSHOT_ROOT="+root,
			"TMPDIR="+t.TempDir()) // what the child's TestMain leaves when killed goes with the test
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		line, err := bufio.NewReader(out).ReadString('\n')
		dir, ok := strings.CutPrefix(strings.TrimSpace(line), "DIR ")
		if err != nil || !ok {
			t.Fatalf("the child said %q (%v)", line, err)
		}
		return cmd, dir
	}
	exists := func(dir string) bool {
		_, err := os.Stat(filepath.Join(dir, snapshotFile))
		return err == nil
	}

	alive, aliveDir := start()
	doomed, doomedDir := start()
	if n, err := CleanStaleSnapshots(root); n != 0 || err != nil || !exists(aliveDir) || !exists(doomedDir) {
		t.Fatalf("with both owners alive, CleanStaleSnapshots removed %d (%v)", n, err)
	}
	if err := doomed.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	doomed.Wait()
	if !exists(doomedDir) {
		t.Fatal("the killed child's snapshot is gone already: the test shows nothing")
	}
	// Stranded the other way too: a folder whose owner died before locking it.
	empty := filepath.Join(root, snapshotPrefix+"empty")
	if err := os.Mkdir(empty, 0o700); err != nil {
		t.Fatal(err)
	}
	foreign := filepath.Join(root, "not-a-snapshot")
	if err := os.Mkdir(foreign, 0o700); err != nil {
		t.Fatal(err)
	}

	// The next snapshot in this process cleans up first.
	dir, _, _, err := MakeSnapshot(context.Background(), root, f.write(t, f.wal))
	if err != nil || dir == "" {
		t.Fatalf("MakeSnapshot: %q %v", dir, err)
	}
	if exists(doomedDir) {
		t.Error("the killed child's snapshot was not removed")
	}
	if _, err := os.Stat(empty); err == nil {
		t.Error("an empty, unlocked snapshot folder was not removed")
	}
	if !exists(aliveDir) || !exists(dir) {
		t.Error("a live snapshot was removed")
	}
	if _, err := os.Stat(foreign); err != nil {
		t.Error("a folder that is not a snapshot was removed")
	}
	if n, err := CleanStaleSnapshots(root); n != 0 || err != nil || !exists(aliveDir) || !exists(dir) {
		t.Errorf("CleanStaleSnapshots removed %d (%v) with both owners alive", n, err)
	}
	if err := ReleaseSnapshot(dir); err != nil || exists(dir) {
		t.Errorf("ReleaseSnapshot: %v", err)
	}
	alive.Process.Signal(syscall.SIGKILL)
	alive.Wait()
	if n, err := CleanStaleSnapshots(root); n != 1 || err != nil || exists(aliveDir) {
		t.Errorf("after the second kill, CleanStaleSnapshots removed %d (%v)", n, err)
	}
}

// TestSnapshotRootOfAnotherUser: a root that another user made (in a shared
// temporary folder, say) is not used. Only root can make one here.
func TestSnapshotRootOfAnotherUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to make a folder owned by another user")
	}
	root := filepath.Join(t.TempDir(), "theirs")
	if err := os.Mkdir(root, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(root, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	f := makeWALFixture(t, 1)
	if _, _, _, err := MakeSnapshot(context.Background(), root, f.write(t, f.wal)); err == nil || !strings.Contains(err.Error(), "another user") {
		t.Errorf("got %v, want a refusal", err)
	}
}
