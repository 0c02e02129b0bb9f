package sqltext

import "strings"

// The SQL dialects of Querent's database adapters (engine.Database's
// Dialect).
const (
	SQLite     = "sqlite"
	PostgreSQL = "postgresql"
)

// Ident writes name as the dialect reads it back as the same identifier,
// double-quoted only when it must be: in SQLite when it is not a plain
// ASCII word or is a keyword; in PostgreSQL also when it holds a capital
// letter (PostgreSQL folds unquoted names to lower case: InvoiceDate must
// be written "InvoiceDate").
func Ident(dialect, name string) string {
	if dialect == PostgreSQL {
		if pgNeedsQuotes(name) {
			return QuoteIdent(name)
		}
		return name
	}
	plain := name != ""
	for i := 0; i < len(name) && plain; i++ {
		c := name[i]
		plain = c == '_' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || (i > 0 && '0' <= c && c <= '9')
	}
	if plain && (len(name) > 17 || !sqliteKeywords[strings.ToUpper(name)]) {
		return name // no keyword is longer than CURRENT_TIMESTAMP
	}
	return QuoteIdent(name)
}

// TableIdent writes a table's name as the adapter reports it: in
// PostgreSQL a table outside the search path is named schema.table, and
// each part is written as Ident writes it ("Sales".orders); in SQLite the
// name is one identifier.
func TableIdent(dialect, name string) string {
	if dialect == PostgreSQL {
		if i := strings.IndexByte(name, '.'); i > 0 && i < len(name)-1 {
			return Ident(dialect, name[:i]) + "." + Ident(dialect, name[i+1:])
		}
	}
	return Ident(dialect, name)
}

// pgNeedsQuotes reports whether name must be quoted in PostgreSQL.
func pgNeedsQuotes(name string) bool {
	if name == "" || pgReserved[strings.ToUpper(name)] {
		return true
	}
	for i, c := range []byte(name) {
		if !(c == '_' || ('a' <= c && c <= 'z') || (i > 0 && (('0' <= c && c <= '9') || c == '$'))) {
			return true
		}
	}
	return false
}

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// sqliteKeywords are SQLite's keywords: identifiers spelled like one are quoted.
var sqliteKeywords = wordSet(`ABORT ACTION ADD AFTER ALL ALTER ALWAYS ANALYZE AND AS ASC ATTACH
AUTOINCREMENT BEFORE BEGIN BETWEEN BY CASCADE CASE CAST CHECK COLLATE COLUMN COMMIT CONFLICT
CONSTRAINT CREATE CROSS CURRENT CURRENT_DATE CURRENT_TIME CURRENT_TIMESTAMP DATABASE DEFAULT
DEFERRABLE DEFERRED DELETE DESC DETACH DISTINCT DO DROP EACH ELSE END ESCAPE EXCEPT EXCLUDE
EXCLUSIVE EXISTS EXPLAIN FAIL FILTER FIRST FOLLOWING FOR FOREIGN FROM FULL GENERATED GLOB
GROUP GROUPS HAVING IF IGNORE IMMEDIATE IN INDEX INDEXED INITIALLY INNER INSERT INSTEAD
INTERSECT INTO IS ISNULL JOIN KEY LAST LEFT LIKE LIMIT MATCH MATERIALIZED NATURAL NO NOT
NOTHING NOTNULL NULL NULLS OF OFFSET ON OR ORDER OTHERS OUTER OVER PARTITION PLAN PRAGMA
PRECEDING PRIMARY QUERY RAISE RANGE RECURSIVE REFERENCES REGEXP REINDEX RELEASE RENAME
REPLACE RESTRICT RETURNING RIGHT ROLLBACK ROW ROWS SAVEPOINT SELECT SET TABLE TEMP TEMPORARY
THEN TIES TO TRANSACTION TRIGGER UNBOUNDED UNION UNIQUE UPDATE USING VACUUM VALUES VIEW
VIRTUAL WHEN WHERE WINDOW WITH WITHOUT`)

// pgReserved are PostgreSQL's reserved key words (those that cannot be
// bare column or table names).
var pgReserved = wordSet(`ALL ANALYSE ANALYZE AND ANY ARRAY AS ASC ASYMMETRIC AUTHORIZATION BINARY BOTH CASE CAST
CHECK COLLATE COLLATION COLUMN CONCURRENTLY CONSTRAINT CREATE CROSS CURRENT_CATALOG CURRENT_DATE CURRENT_ROLE
CURRENT_SCHEMA CURRENT_TIME CURRENT_TIMESTAMP CURRENT_USER DEFAULT DEFERRABLE DESC DISTINCT DO ELSE END EXCEPT
FALSE FETCH FOR FOREIGN FREEZE FROM FULL GRANT GROUP HAVING ILIKE IN INITIALLY INNER INTERSECT INTO IS ISNULL
JOIN LATERAL LEADING LEFT LIKE LIMIT LOCALTIME LOCALTIMESTAMP NATURAL NOT NOTNULL NULL OFFSET ON ONLY OR ORDER
OUTER OVERLAPS PLACING PRIMARY REFERENCES RETURNING RIGHT SELECT SESSION_USER SIMILAR SOME SYMMETRIC
SYSTEM_USER TABLE TABLESAMPLE THEN TO TRAILING TRUE UNION UNIQUE USER USING VARIADIC VERBOSE WHEN WHERE WINDOW WITH`)
