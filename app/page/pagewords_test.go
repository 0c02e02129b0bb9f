package page

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"querent/engine"
	"querent/engine/words"
)

// namesCommandLine reports text that names a flag or a querent command.
func namesCommandLine(s string) bool {
	return strings.Contains(s, "--") || strings.Contains(s, "querent ")
}

// TestPlainPageWords: the hints engine/ingest still writes as text reach
// the page in its own words, naming no flag and no querent command.
func TestPlainPageWords(t *testing.T) {
	for _, h := range []string{
		"import a CSV or XLSX file; a UTF-16 file without a byte-order mark needs --encoding utf-16",
		"fix the row, or use --ragged pad to fill short rows with empty (NULL) values",
		"if the file is in Windows-1252, import it with --encoding windows-1252",
		"name one of its sheets with --sheet, or leave --sheet out to import every sheet",
		"split the workbook or import fewer sheets at a time (--sheet); with other files, import them one at a time",
		"open it directly: querent sql --db /tmp/a.sqlite",
	} {
		got := pageSaid(words.Plain(h))
		if len(got) != 1 || namesCommandLine(got["en"]) {
			t.Errorf("pageSaid(%q)\n = %q: still names the command line", h, got)
		}
	}
	if got := pageText("no such column: x--y"); got != "no such column: x--y" {
		t.Errorf("a message that names no flag changed: %q", got)
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
