// Package frontend embeds the built page (dist/, made by `make build` with
// Vite) for the desktop app and the browser mode. A clean checkout holds
// only dist/.gitkeep; then Assets serves a page that says how to build.
package frontend

import (
	"embed"
	"io/fs"
	"testing/fstest"
)

//go:embed all:dist
var dist embed.FS

// fallback is served when the page was not built.
const fallback = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Querent</title>
<style>body{font:16px system-ui,sans-serif;max-width:40em;margin:4em auto;color:#222}code{background:#eee;padding:.1em .3em}</style></head>
<body><h1>Querent</h1><p>The page of this build was not built. Run <code>make build</code> (it needs Node.js and npm),
or use the command line: <code>querent sql</code>, <code>querent ask</code>.</p></body></html>`

// Built reports whether dist/ holds a built page.
func Built() bool {
	_, err := fs.Stat(dist, "dist/index.html")
	return err == nil
}

// Assets returns the page's files, rooted at dist/ (or the fallback page).
func Assets() fs.FS {
	if Built() {
		sub, err := fs.Sub(dist, "dist")
		if err == nil {
			return sub
		}
	}
	return fstest.MapFS{"index.html": &fstest.MapFile{Data: []byte(fallback)}}
}
