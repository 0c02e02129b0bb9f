package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/mattn/go-isatty"

	"querent/engine/text"
)

// progress is the one progress line of the command line (import, export,
// ask, model pull, eval): a line redrawn in place on standard error, at
// most ten times a second, cleared when the work ends. It draws only on a
// terminal: piped or redirected output stays clean. It is safe for use by
// several goroutines.
type progress struct {
	w     io.Writer
	hint  string // what stops the work ("Ctrl-C cancels")
	width int    // the most columns a line may take

	mu    sync.Mutex
	last  time.Time
	shown bool
}

// newProgress returns the progress line for w, or nil (every method of a
// nil *progress does nothing) when w is not a terminal or text is not the
// output format.
func newProgress(w io.Writer, format, hint string) *progress {
	f, ok := w.(*os.File)
	if !ok || format != "text" || !isatty.IsTerminal(f.Fd()) {
		return nil
	}
	return &progress{w: w, hint: hint, width: 100}
}

// set redraws the line with msg (throttled; force draws at once, for a
// change of stage that must not be skipped).
func (p *progress) set(msg string, force bool) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !force && time.Since(p.last) < 100*time.Millisecond {
		return
	}
	p.last = time.Now()
	line := msg
	if p.hint != "" {
		line += "  (" + p.hint + ")"
	}
	fmt.Fprintf(p.w, "\r\033[K%s", cut(line, p.width))
	p.shown = true
}

// bar draws msg with a bar of frac (0 to 1) and its percentage.
func (p *progress) bar(msg string, frac float64, detail string) {
	if p == nil {
		return
	}
	frac = max(0, min(1, frac))
	n := int(frac * 24)
	p.set(fmt.Sprintf("%s [%s%s] %3.0f%% %s", msg, strings.Repeat("#", n), strings.Repeat(".", 24-n), frac*100, detail), false)
}

// clear removes the line.
func (p *progress) clear() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprint(p.w, "\r\033[K")
		p.shown = false
	}
}

// cut shortens s to width display columns, with … when it is cut.
func cut(s string, width int) string {
	if width <= 0 || text.Width(s) <= width {
		return s
	}
	var b strings.Builder
	w := 0
	for _, r := range s {
		rw := text.RuneWidth(r)
		if w+rw > width-1 {
			break
		}
		b.WriteRune(r)
		w += rw
	}
	return b.String() + "…"
}
