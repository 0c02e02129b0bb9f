//go:build linux && desktop

package main

// GTK panics ("failed to init GTK") without a display: say so first. Only
// the real window needs one (not `wails generate module`, which builds
// without the desktop tag).
func init() { needsDisplay = true }
