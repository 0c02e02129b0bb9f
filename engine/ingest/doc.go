// Package ingest reads the sources Querent imports (CSV here; XLSX through
// the same entry point) into imports.Table values that the SQLite
// writer stores.
//
// Reading is two passes over the file, so memory stays bounded whatever its
// size. The first pass (Read) decodes the text (UTF-8, UTF-8 with a BOM,
// UTF-16 with a BOM, or legacy Windows-1252), sniffs the delimiter, parses
// every record with a byte-level RFC 4180 parser, checks the row lengths,
// infers each column's type from all its values and hashes the file. The
// second pass (imports.Table.Rows) parses the file again and streams each row
// converted to its columns' types; it fails if the file changed in between.
//
// Inputs are bounded by mechanisms, not by the cases foreseen (limits.go):
// a value holds at most 10 MB and a row 64 MB in both formats; reading an
// XLSX workbook stays within a memory ceiling and a ceiling on temporary
// files (Options.MaxMemory, Options.MaxTemp), and only regular files are
// read.
//
// Types are chosen so that nothing is lost: a column converts only when
// every value that is not missing converts (a leading-zero code, an
// ambiguous day/month order or a value beyond int64 keeps it TEXT), and each
// column carries a reason in plain words. The naming, typing and value
// formats follow the import contract in docs/design.md.
package ingest
