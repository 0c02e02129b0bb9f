package page

import (
	"regexp"
	"strings"

	"querent/engine"
)

// The engine's messages and hints are written for every face, and name the
// command line's flags where a flag is the way on ("allow more time with
// --timeout", "import it: querent import --db new.sqlite x.csv"). The page
// has buttons and fields instead: pageText says the same in the page's
// words, in one place, for every error, answer and report the services
// hand over (house rule 2: each face translates errors once).
var pageWords = []struct {
	re   *regexp.Regexp
	with string
}{
	// Time and rows.
	{regexp.MustCompile(`allow more time with --timeout`), "allow more time (Timeout, in Settings)"},
	{regexp.MustCompile(`allow more time \(--timeout\)`), "allow more time (Timeout, in Settings)"},
	{regexp.MustCompile(`\s*\(--max-rows\)`), ""},
	{regexp.MustCompile(`raise (the cap with )?--max-rows`), "raise the row cap in Settings"},
	// Models and Ollama.
	{regexp.MustCompile(`try another model with --model`), "choose another model in Settings"},
	{regexp.MustCompile(`try another model \(--model\)`), "choose another model in Settings"},
	{regexp.MustCompile(`check the address given by --ollama or OLLAMA_HOST`), "check the Ollama address in Settings (or OLLAMA_HOST)"},
	{regexp.MustCompile(`direct SQL \(querent sql\) works`), "direct SQL works"},
	{regexp.MustCompile(`write the SQL yourself with querent sql`), "write the SQL yourself in the SQL editor"},
	// The schema.
	{regexp.MustCompile(`\(querent schema lists them\)`), "(the sidebar lists them)"},
	{regexp.MustCompile(`in the schema \(querent schema\)`), "in the sidebar"},
	// Opening files that are not databases.
	{regexp.MustCompile(`use: querent import --db \S+ \S+`), "use Import CSV or Excel on the start screen"},
	{regexp.MustCompile(`import it: querent import --db \S+ .+$`), "import it with Import CSV or Excel on the start screen"},
	{regexp.MustCompile(`import it into a database: querent import --db \S+ .+$`), "import it with Import CSV or Excel on the start screen"},
	{regexp.MustCompile(`then import it with querent import`), "then import it with Import CSV or Excel"},
	{regexp.MustCompile(`open it directly: querent sql --db .+$`), "open it directly with Open a database"},
	// Importing.
	{regexp.MustCompile(`needs --encoding utf-16`), "needs the encoding UTF-16 (Encoding, in the import's options)"},
	{regexp.MustCompile(`import it with --encoding windows-1252`), "import it again with the encoding Windows-1252 (Encoding, in the import's options)"},
	{regexp.MustCompile(`use --ragged pad to`), "tick “Accept rows with missing fields” in the import's options to"},
	{regexp.MustCompile(`to replace it anyway, use --replace-user-table; to keep it, use --table NAME to import into a new table`),
		"to keep it, import under another table name (Table name, in the import's options)"},
	{regexp.MustCompile(`: --replace replaces only tables Querent imported`), ": Replace replaces only tables Querent imported"},
	{regexp.MustCompile(`choose another table name with --table`), "choose another table name (Table name, in the import's options)"},
	{regexp.MustCompile(`name one of its sheets with --sheet, or leave --sheet out to import every sheet`), "import every sheet, or name one that is in the workbook"},
	{regexp.MustCompile(`import fewer sheets at a time \(--sheet\)`), "import fewer sheets at a time"},
	{regexp.MustCompile(`such as --db `), "such as "},
	{regexp.MustCompile(`choose another --db path`), "choose another place for the new database"},
	{regexp.MustCompile(`choose a file you may write with --db`), "choose a place you may write for the new database"},
	{regexp.MustCompile(`or choose another --db`), "or choose another name for the new database"},
	{regexp.MustCompile(`write to another file with --db`), "choose another name for the new database"},
	{regexp.MustCompile(`give --db a file name, such as`), "give the new database a file name, such as"},
	// Exporting.
	{regexp.MustCompile(`, even with --force`), ""},
	{regexp.MustCompile(`use --force to replace it, or choose another file`), "choose another file name, or replace the file when the save dialog asks"},
	{regexp.MustCompile(`replace it with --force`), "replace it when the save dialog asks"},
	// Evaluate models.
	{regexp.MustCompile(`check --db and --gold: `), "check the gold set and the open database: "},
}

// pageText says s in the page's words (see pageWords).
func pageText(s string) string {
	if !strings.Contains(s, "--") && !strings.Contains(s, "querent ") {
		return s
	}
	for _, w := range pageWords {
		s = w.re.ReplaceAllString(s, w.with)
	}
	return s
}

// pageDoc is an error document in the page's words.
func pageDoc(d engine.ErrorDoc) engine.ErrorDoc {
	d.Message, d.Hint = pageText(d.Message), pageText(d.Hint)
	return d
}

// pageList is a list of warnings in the page's words.
func pageList(ws []string) []string {
	for i, w := range ws {
		ws[i] = pageText(w)
	}
	return ws
}

// pageAnswer puts an answer's errors, warnings and attempts in the page's
// words; it returns the same answer.
func pageAnswer(a *engine.Answer) *engine.Answer {
	if a == nil {
		return nil
	}
	for i := range a.Errors {
		a.Errors[i] = pageDoc(a.Errors[i])
	}
	a.Warnings = pageList(a.Warnings)
	for i := range a.Attempts {
		if e := a.Attempts[i].Error; e != nil {
			c := *e
			c.Message = pageText(c.Message)
			a.Attempts[i].Error = &c
		}
	}
	return a
}
