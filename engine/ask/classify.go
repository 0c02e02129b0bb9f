package ask

import (
	"context"
	"strings"
	"unicode"

	"querent/engine"
	"querent/engine/sqltext"
)

// statementVerbs start SQL statements (of any kind: a write sent as a
// question must reach the guard, never a model that might "answer" it).
var statementVerbs = map[string]bool{
	"SELECT": true, "WITH": true, "VALUES": true, "TABLE": true, "INSERT": true, "UPDATE": true, "DELETE": true, "REPLACE": true,
	"CREATE": true, "DROP": true, "ALTER": true, "PRAGMA": true, "ATTACH": true, "DETACH": true, "VACUUM": true, "REINDEX": true,
	"ANALYZE": true, "BEGIN": true, "COMMIT": true, "ROLLBACK": true, "SAVEPOINT": true, "RELEASE": true, "EXPLAIN": true,
	"TRUNCATE": true, "GRANT": true, "REVOKE": true, "SET": true, "SHOW": true, "COPY": true, "CALL": true, "DO": true,
}

// sqlWords are the keywords that make a text read as SQL rather than as an
// English sentence that happens to start with "Select".
var sqlWords = map[string]bool{
	"SELECT": true, "FROM": true, "WHERE": true, "JOIN": true, "ON": true, "GROUP": true, "ORDER": true, "BY": true, "HAVING": true,
	"LIMIT": true, "OFFSET": true, "UNION": true, "ALL": true, "DISTINCT": true, "AS": true, "AND": true, "OR": true, "NOT": true,
	"IN": true, "IS": true, "NULL": true, "LIKE": true, "BETWEEN": true, "CASE": true, "WHEN": true, "THEN": true, "ELSE": true,
	"END": true, "INTO": true, "VALUES": true, "SET": true, "TABLE": true, "WITH": true, "LEFT": true, "INNER": true, "OUTER": true,
	"CROSS": true, "ASC": true, "DESC": true, "COUNT": true, "SUM": true, "AVG": true, "MIN": true, "MAX": true, "OVER": true,
	"PARTITION": true, "RECURSIVE": true, "EXISTS": true, "USING": true, "NATURAL": true, "INSERT": true, "UPDATE": true,
	"DELETE": true, "DROP": true, "CREATE": true, "ALTER": true, "INDEX": true, "VIEW": true, "PRAGMA": true, "TOP": true,
}

// IsSQL tells a question from SQL. A text is SQL when the database compiles
// it (or its guard refuses it: the statement is understood and not allowed),
// or when it starts with a statement's keyword and does not read as a
// sentence. "Select the top 10 customers by spending" starts like SQL but
// is a question: at least three of its words are neither SQL keywords nor
// names of the database, and it has none of SQL's punctuation. Broken SQL
// ("SELECT nope FROM covid_x9") stays SQL, so that its error comes back
// instead of a model's guess.
func IsSQL(ctx context.Context, db engine.Database, text string) bool {
	sts := sqltext.Split(text)
	if len(sts) == 0 {
		return false
	}
	first := sts[0].FirstWord(text)
	if !statementVerbs[first] {
		return false
	}
	_, err := db.Validate(ctx, text)
	if err == nil || engine.ErrorCode(err) == engine.CodeRefused {
		return true
	}
	return !readsAsSentence(ctx, db, text)
}

// readsAsSentence reports whether text that does not compile reads as prose:
// no quotes or operators, and three words or more that are no SQL keyword,
// no name of the schema, and shaped like words (letters only: covid_x9 is a
// name, not a word). Parentheses are prose's too ("Show me the best
// employees (by revenue)", a clarification's answer): they count for
// neither.
func readsAsSentence(ctx context.Context, db engine.Database, text string) bool {
	names := map[string]bool{}
	if s, err := db.Schema(ctx); err == nil {
		for _, t := range s.Tables {
			names[strings.ToUpper(t.Name)] = true
			for _, c := range t.Columns {
				names[strings.ToUpper(c.Name)] = true
			}
		}
	}
	plain := 0
	for _, t := range sqltext.Lex(text) {
		switch t.Kind {
		case sqltext.Param:
			// A question's closing "?" is prose; a ? inside is a parameter.
			if text[t.Start:t.End] != "?" || strings.TrimSpace(text[t.End:]) != "" {
				return false
			}
		case sqltext.String, sqltext.Quoted, sqltext.Semi:
			return false
		case sqltext.Op:
			switch text[t.Start:t.End] {
			case ",", ".", "?", "!", ":", "-", "'", "(", ")":
			default: // = * < > + / …: SQL's punctuation
				return false
			}
		case sqltext.Word:
			w := text[t.Start:t.End]
			up := strings.ToUpper(w)
			if sqlWords[up] || names[up] || strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) }) >= 0 {
				continue
			}
			plain++
		}
	}
	return plain >= 3
}
