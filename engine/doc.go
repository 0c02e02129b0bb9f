// Package engine is Querent's domain: the types every face shares (results,
// schemas, statistics), the one error vocabulary, the small interfaces the
// adapters implement (the database port, later the model port), and the pure
// logic that needs no driver: column statistics and the chart suggestion.
//
// It imports no database driver, no HTTP and no GUI toolkit; adapters such as
// engine/sqlite import it, never the reverse.
package engine
