// Package desktop holds the services that the desktop app (Wails) binds and
// that the browser mode (app/web) serves over HTTP: Datasets (open, import,
// schema), Ask (the model loop), Results (direct SQL), Export and Settings.
// Each method returns (T, error); long work reports progress through the
// Events interface and can be cancelled. The services hold no business
// rules: they call the engine through the functions in Deps, which the two
// binaries wire (package wiring).
package page

// The page's TypeScript types (frontend/src/api/types.gen.ts) come from the
// Go types the services take and return and from PageEvents; a test fails
// when the file is stale.
//
//go:generate go run ./tsgen/cmd/tsgen
