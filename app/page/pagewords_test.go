package page

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"querent/engine"
	"querent/engine/ingest"
	"querent/engine/words"
)

// namesCommandLine reports text that names a flag or a querent command.
func namesCommandLine(s string) bool {
	return strings.Contains(s, "--") || strings.Contains(s, "querent ")
}

// TestPlainTextAsWritten: text the engine wrote in English only reaches
// the page as written, in English (no pattern rewrites it).
func TestPlainTextAsWritten(t *testing.T) {
	for _, h := range []string{"no such column: x--y", "the disk is full; free some space and try again"} {
		if got := pageSaid(words.Plain(h)); len(got) != 1 || got["en"] != h {
			t.Errorf("pageSaid(%q) = %q", h, got)
		}
	}
}

// TestImportHintsReachThePage: engine/ingest says its hints in parts, and
// the page says them with its import options, in each of its languages,
// with no pattern over the English; the Details keep the command line's.
func TestImportHintsReachThePage(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"short.csv":  "a,b,c\n1,2\n",
		"sqlite.csv": "SQLite format 3\x00" + strings.Repeat("\x00", 84),
		"png.csv":    "\x89PNG\r\n\x1a\n" + strings.Repeat("\x00", 100),
	}
	want := map[string]string{
		"short.csv":  "fix the row, or tick “Accept rows with missing fields” in the import's options to fill short rows with empty (NULL) values",
		"sqlite.csv": "open it directly with Open a database",
		"png.csv":    "import a CSV, XLSX or JSON file; a UTF-16 file without a byte-order mark needs the encoding UTF-16 (Encoding, in the import's options)",
	}
	for name, data := range files {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(data), 0o644)
		_, err := ingest.Read(context.Background(), p, ingest.Options{})
		d := ErrorDoc(err)
		if !namesCommandLine(d.Hint) || d.HintSaid["en"] != want[name] {
			t.Errorf("%s: hint %q, said %q", name, d.Hint, d.HintSaid["en"])
		}
		for _, lang := range words.Languages {
			if h := d.HintSaid[lang]; h == "" || namesCommandLine(h) || lang != "en" && h == d.HintSaid["en"] {
				t.Errorf("%s in %s: %q", name, lang, h)
			}
		}
	}
}

// TestPageWordsReachThePage: an error the services return and an answer's
// errors and warnings carry the page's words in each of its languages,
// with the engine's own words kept for the Details.
func TestPageWordsReachThePage(t *testing.T) {
	csv := filepath.Join(t.TempDir(), "data.csv")
	os.WriteFile(csv, []byte("a,b\n1,2\n"), 0o644)
	raw := "to query CSV data, import it into a database: querent import --db new.sqlite " + csv
	d := ErrorDoc(engine.Errorf(engine.CodeDatabase, "%s: this is not a SQLite database", csv).SayHint(
		words.New("open.import_csv", words.Import.With(words.DB.With("new.sqlite"), words.Value(csv)))))
	if d.Hint != raw || namesCommandLine(d.HintSaid["en"]) || !strings.Contains(d.HintSaid["en"], "Import CSV or Excel") {
		t.Errorf("ErrorDoc hint %q, said %q", d.Hint, d.HintSaid)
	}

	d = ErrorDoc(fmt.Errorf("waiting: %w", context.DeadlineExceeded))
	want := words.Said{
		"en": "allow more time (Timeout, in Settings) or ask for less",
		"fr": "accordez plus de temps (Délai maximal, dans les Réglages) ou demandez moins",
		"zh": "放宽时间限制（“设置”中的“超时”），或减少查询的数据量",
	}
	if d.Hint != "allow more time (--timeout) or ask for less" || fmt.Sprint(d.HintSaid) != fmt.Sprint(want) || d.MessageSaid["en"] != d.Message {
		t.Errorf("the deadline: hint %q, said %q, message %q", d.Hint, d.HintSaid, d.MessageSaid)
	}

	refused := engine.Say(engine.CodeDatabase, words.Seq(words.Value("postgres://u@db/x: "), words.New("role.superuser_refused", words.Value("u"))))
	if d := ErrorDoc(refused); d.Key != "role.superuser_refused" || !strings.HasPrefix(d.MessageSaid["fr"], "postgres://u@db/x: le rôle u est un superutilisateur") {
		t.Errorf("a refused superuser: key %q, said %q", d.Key, d.MessageSaid)
	}

	ans := engine.NewAnswer("SELECT 1")
	ans.AddError(engine.Errorf(engine.CodeTimeout, "the query ran past its 1s timeout").SayHint(words.New("hint.cheaper", words.Timeout)))
	ans.Warn(words.New("tls.in_clear", words.Value("db.example.com"), words.New("tls.sslmode_require")))
	ans.Warnings = append(ans.Warnings, "a snapshot of the WAL file was read")
	pageAnswer(ans)
	if h := ans.Errors[0].HintSaid["en"]; namesCommandLine(h) || !strings.Contains(h, "Settings") {
		t.Errorf("answer hint %q", h)
	}
	if len(ans.WarningsSaid) != 2 || ans.WarningsSaid[0]["zh"] != "到 db.example.com 的连接未加密：查询及其结果以明文在网络上传输（SSL 模式“必须”可加密连接）" ||
		fmt.Sprint(ans.WarningsSaid[1]) != "map[en:a snapshot of the WAL file was read]" {
		t.Errorf("answer warnings %q", ans.WarningsSaid)
	}
}
