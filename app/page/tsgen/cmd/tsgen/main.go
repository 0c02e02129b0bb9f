// Command tsgen writes the page's TypeScript types from the Go types that
// cross the boundary (package tsgen): `go generate ./app/page`, or
// `make generate`. With -check it writes nothing and fails when the file is
// stale.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"querent/app/page/tsgen"
)

func main() {
	check := flag.Bool("check", false, "fail when the file is stale instead of writing it")
	flag.Parse()
	if err := run(*check); err != nil {
		fmt.Fprintln(os.Stderr, "tsgen:", err)
		os.Exit(1)
	}
}

func run(check bool) error {
	root, err := tsgen.Root()
	if err != nil {
		return err
	}
	b, err := tsgen.Generate(root)
	if err != nil {
		return err
	}
	path := filepath.Join(root, filepath.FromSlash(tsgen.Output))
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, b) {
		return nil
	}
	if check {
		return fmt.Errorf("%s is stale: run make generate", tsgen.Output)
	}
	return writeAtomic(path, b)
}

// writeAtomic writes the file whole or not at all: a temporary file beside
// it, then a rename.
func writeAtomic(path string, b []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".types-*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
