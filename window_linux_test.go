//go:build linux

package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestWindow starts the real desktop binary on a private X server (Xvfb),
// waits for its window, and checks what a user would see: a window titled
// for the demo database, showing a rendered page (not a blank one). The
// screenshot goes to $QUERENT_REPORT_DIR/window.png.
//
// It runs with QUERENT_WINDOW_TEST=1 (make window). The binary is
// $QUERENT_DESKTOP_BIN (make passes build/bin/querent-desktop), else it is
// built here with the desktop tags (cgo, GTK 3 and WebKitGTK 4.1 needed).
// Everything the app writes goes to a temporary folder: never $HOME.
func TestWindow(t *testing.T) {
	if os.Getenv("QUERENT_WINDOW_TEST") == "" {
		t.Skip("the real-window test runs with QUERENT_WINDOW_TEST=1 (make window)")
	}
	for tool, pkg := range map[string]string{"Xvfb": "xvfb", "xdotool": "xdotool", "import": "imagemagick"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is missing: apt-get install %s", tool, pkg)
		}
	}
	tmp := t.TempDir()
	bin := desktopBinary(t, tmp)
	display := startXvfb(t, tmp)

	home := filepath.Join(tmp, "home")
	env := []string{
		"DISPLAY=" + display, "GDK_BACKEND=x11", "NO_AT_BRIDGE=1",
		"HOME=" + home,
		"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"),
		"XDG_RUNTIME_DIR=" + filepath.Join(tmp, "run"),
		"QUERENT_DATA_DIR=" + filepath.Join(tmp, "data"),
	}
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); k == "PATH" || k == "LANG" || k == "LC_ALL" || k == "TZ" {
			env = append(env, kv)
		}
	}
	if err := os.MkdirAll(filepath.Join(tmp, "run"), 0o700); err != nil {
		t.Fatal(err)
	}
	logPath := filepath.Join(tmp, "app.log")
	logf, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer logf.Close()
	app := exec.Command(bin)
	app.Dir, app.Env, app.Stdout, app.Stderr = tmp, env, logf, logf
	app.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // WebKit's helper processes go with it
	if err := app.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- app.Wait() }()
	t.Cleanup(func() { stopGroup(app.Process.Pid, exited) })
	appLog := func() string {
		b, _ := os.ReadFile(logPath)
		return tail(string(b), 2000)
	}

	x := func(name string, args ...string) (string, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, name, args...)
		cmd.Env = env
		out, err := cmd.Output()
		return strings.TrimSpace(string(out)), err
	}

	// The window maps with the title "Querent"; once OnStartup has opened
	// the demo through the services, the title names it (WindowSetTitle).
	var id, title string
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) && !strings.Contains(title, "(read-only)") {
		select {
		case err := <-exited:
			t.Fatalf("the app exited early (%v):\n%s", err, appLog())
		default:
		}
		time.Sleep(250 * time.Millisecond)
		ids, _ := x("xdotool", "search", "--onlyvisible", "--name", "Querent")
		for _, cand := range strings.Fields(ids) {
			if name, err := x("xdotool", "getwindowname", cand); err == nil && strings.Contains(name, "Querent") {
				id, title = cand, name
			}
		}
	}
	if id == "" {
		t.Fatalf("no window titled Querent appeared within 60 s:\n%s", appLog())
	}
	if !strings.Contains(title, "Querent") || !strings.Contains(title, "(read-only)") {
		t.Fatalf("window title = %q; want the demo's title ending in Querent (OnStartup did not open the demo?)\n%s", title, appLog())
	}
	t.Logf("window %s: %q", id, title)
	// The window's place on the screen: the checks look inside it only.
	geom, err := x("xdotool", "getwindowgeometry", "--shell", id)
	if err != nil {
		t.Fatalf("xdotool getwindowgeometry: %v", err)
	}
	area, err := parseGeometry(geom)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("window area %v", area)

	// Screenshots until the page has rendered and settled: two in a row
	// alike and not blank.
	shot := filepath.Join(tmp, "window.png")
	var last [32]byte
	var stats shotStats
	settled := false
	deadline = time.Now().Add(45 * time.Second)
	for time.Now().Before(deadline) {
		time.Sleep(700 * time.Millisecond)
		if out, err := x("import", "-window", "root", "png:"+shot); err != nil {
			t.Fatalf("import -window root: %v %s", err, out)
		}
		b, err := os.ReadFile(shot)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("the screenshot is not a PNG: %v", err)
		}
		stats = measure(img, area)
		sum := sha256.Sum256(stats.pixels)
		if stats.notBlank() && sum == last {
			settled = true
			break
		}
		last = sum
	}
	t.Logf("screenshot: %dx%d, %d distinct colours, the commonest covers %.1f%%", stats.w, stats.h, stats.colours, 100*stats.topShare)
	if dir := os.Getenv("QUERENT_REPORT_DIR"); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err == nil {
			if b, err := os.ReadFile(shot); err == nil {
				if err := os.WriteFile(filepath.Join(dir, "window.png"), b, 0o644); err != nil {
					t.Error(err)
				}
			}
		}
	}
	if !stats.notBlank() {
		t.Fatalf("the window looks blank (%d colours, one covers %.1f%%): WebKit did not render the page\n%s", stats.colours, 100*stats.topShare, appLog())
	}
	if !settled {
		t.Logf("the page was still changing after 45 s; kept the last screenshot")
	}
	if s := appLog(); strings.Contains(s, "panic") || strings.Contains(s, "FATAL") {
		t.Errorf("the app's log holds errors:\n%s", s)
	}
}

// desktopBinary is $QUERENT_DESKTOP_BIN, or the desktop app built here.
func desktopBinary(t *testing.T, tmp string) string {
	if bin := os.Getenv("QUERENT_DESKTOP_BIN"); bin != "" {
		if _, err := os.Stat(bin); err != nil {
			t.Fatalf("QUERENT_DESKTOP_BIN: %v (make build makes it)", err)
		}
		return bin
	}
	bin := filepath.Join(tmp, "querent-desktop")
	cmd := exec.Command("go", "build", "-tags", "desktop,webkit2_41,production", "-o", bin, ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the desktop app: %v\n%s\n(it needs gcc, pkg-config, libgtk-3-dev and libwebkit2gtk-4.1-dev)", err, out)
	}
	return bin
}

// startXvfb starts a private X server on a free display (Xvfb picks it and
// tells us on a pipe) and returns ":N".
func startXvfb(t *testing.T, tmp string) string {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	logf, err := os.Create(filepath.Join(tmp, "xvfb.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", "1280x900x24", "-nolisten", "tcp", "-noreset")
	cmd.ExtraFiles = []*os.File{w}
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait(); logf.Close() }()
	t.Cleanup(func() { stopGroup(cmd.Process.Pid, exited) })

	got := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(r).ReadString('\n')
		got <- strings.TrimSpace(line)
	}()
	select {
	case n := <-got:
		if n == "" {
			b, _ := os.ReadFile(filepath.Join(tmp, "xvfb.log"))
			t.Fatalf("Xvfb did not start:\n%s", b)
		}
		return ":" + n
	case <-time.After(20 * time.Second):
		t.Fatal("Xvfb did not report its display within 20 s")
	}
	return ""
}

// stopGroup ends a process group started by the test: SIGTERM, then
// SIGKILL after 5 s.
func stopGroup(pid int, exited <-chan error) {
	_ = syscall.Kill(-pid, syscall.SIGTERM)
	select {
	case <-exited:
	case <-time.After(5 * time.Second):
		_ = syscall.Kill(-pid, syscall.SIGKILL)
		<-exited
	}
	_ = syscall.Kill(-pid, syscall.SIGKILL) // helpers that outlived the leader
}

type shotStats struct {
	w, h     int
	colours  int
	topShare float64
	pixels   []byte
}

// notBlank: a rendered page has text (anti-aliased: many colours), and no
// single colour covers (nearly) all of the window. A page that is mostly
// white, such as the fallback page, still has over 1% of other pixels.
func (s shotStats) notBlank() bool { return s.colours > 32 && s.topShare < 0.995 }

// parseGeometry reads `xdotool getwindowgeometry --shell` (X=, Y=, WIDTH=, HEIGHT=).
func parseGeometry(s string) (image.Rectangle, error) {
	v := map[string]int{}
	for _, line := range strings.Fields(s) {
		k, val, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		var n int
		if _, err := fmt.Sscan(val, &n); err == nil {
			v[k] = n
		}
	}
	if v["WIDTH"] < 100 || v["HEIGHT"] < 100 {
		return image.Rectangle{}, fmt.Errorf("the window is too small or unknown: %q", s)
	}
	return image.Rect(v["X"], v["Y"], v["X"]+v["WIDTH"], v["Y"]+v["HEIGHT"]), nil
}

// measure counts the colours inside area (the window) of the screenshot.
func measure(img image.Image, area image.Rectangle) shotStats {
	b := img.Bounds().Intersect(area)
	s := shotStats{w: b.Dx(), h: b.Dy()}
	counts := map[uint32]int{}
	s.pixels = make([]byte, 0, b.Dx()*b.Dy()*3)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			c := (r>>8)<<16 | (g>>8)<<8 | bl>>8
			counts[c]++
			s.pixels = append(s.pixels, byte(r>>8), byte(g>>8), byte(bl>>8))
		}
	}
	s.colours = len(counts)
	top := 0
	for _, n := range counts {
		top = max(top, n)
	}
	if n := b.Dx() * b.Dy(); n > 0 {
		s.topShare = float64(top) / float64(n)
	}
	return s
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return fmt.Sprintf("…%s", s[len(s)-n:])
}
