package words

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

var placeholder = regexp.MustCompile(`\{[0-9]\}`)

// cites is the sorted placeholders of t.
func cites(t string) []string {
	c := placeholder.FindAllString(t, -1)
	slices.Sort(c)
	return slices.Compact(c)
}

// Every sentence is in every language, citing the same parts; a variant
// has its sentence; MCP's variants are English only.
func TestEverySentenceInEveryLanguage(t *testing.T) {
	base := languages["en"].sentences
	for _, lang := range Languages {
		l := languages[lang]
		if l == nil {
			t.Fatalf("no table for %q", lang)
		}
		if l.comma == "" || l.semi == "" || l.or == "" || l.and == "" || l.andMore == "" || l.thousands == "" {
			t.Errorf("%s: a list or count separator is missing", lang)
		}
		for key, s := range base {
			k, face, _ := strings.Cut(key, "@")
			if face != "" && face != string(Page) && face != string(Agent) {
				t.Errorf("%q: no face %q", key, face)
			}
			if _, ok := base[k]; !ok && face != "" && !strings.HasPrefix(k, "flag.") && !strings.HasPrefix(k, "command.") {
				t.Errorf("%q is a variant of no sentence", key)
			}
			tr, ok := l.sentences[key]
			switch {
			case face == string(Agent):
				if lang != "en" && ok {
					t.Errorf("%s: %q: MCP speaks English only", lang, key)
				}
				continue
			case !ok:
				t.Errorf("%s: no sentence %q", lang, key)
				continue
			case strings.TrimSpace(tr) == "" && strings.TrimSpace(s) != "":
				t.Errorf("%s: %q is empty", lang, key)
			}
			if !slices.Equal(cites(s), cites(tr)) {
				t.Errorf("%s: %q cites %v, English %v", lang, key, cites(tr), cites(s))
			}
		}
		for key := range l.sentences {
			if _, ok := base[key]; !ok {
				t.Errorf("%s: %q is not an English sentence", lang, key)
			}
		}
	}
}

// Every sentence, said with parts in every language for every face,
// leaves no placeholder and no formatting verb; the line and row words
// take their number.
func TestEverySentenceSaid(t *testing.T) {
	parts := []Part{Value("a"), Count(1234), Word(3), Quoted(`x"y`), Value("e"), Value("f"), Value("g"), Value("h"), Value("i")}
	for key := range languages["en"].sentences {
		k, face, _ := strings.Cut(key, "@")
		for _, lang := range Languages {
			got := Speaker{Lang: lang, Face: Face(face)}.Say(New(k, parts...))
			if placeholder.MatchString(got) || strings.Contains(got, "%!") || strings.Contains(got, "%s") || strings.Contains(got, "%d") {
				t.Errorf("%s %s: %q", lang, key, got)
			}
		}
	}
	for _, lang := range Languages {
		for _, sheet := range []bool{false, true} {
			if got := (Speaker{Lang: lang, Sheet: sheet}).Say(Line(57)); !strings.Contains(got, "57") {
				t.Errorf("%s sheet %v: %q", lang, sheet, got)
			}
		}
	}
}

// Parts said the language's way.
func TestParts(t *testing.T) {
	cases := []struct {
		p          Part
		en, fr, zh string
	}{
		{Count(1234567), "1,234,567", "1\u202f234\u202f567", "1,234,567"},
		{Count(-1234), "-1,234", "-1\u202f234", "-1,234"},
		{Word(3), "three", "trois", "3"},
		{Word(11), "11", "11", "11"},
		{Quoted(`say "hi"`), `"say "hi""`, `« say "hi" »`, `“say "hi"”`},
		{List(Semi, Value("a"), nil, Value("b")), "a; b", "a ; b", "a；b"},
		{Values(Or, "yes", "no"), "yes or no", "yes ou no", "yes 或 no"},
		{And(4, "a"), "a", "a", "a"},
		{And(4, "a", "b", "c"), "a, b and c", "a, b et c", "a、b 和 c"},
		{And(4, "a", "b", "c", "d", "e", "f"), "a, b, c and 3 more", "a, b, c et 3 autres", "a、b、c 等另外 3 列"},
		{Seq(Value("x: "), New("role.a_superuser")), "x: a superuser", "x: un superutilisateur", "x: 超级用户"},
		{Plain("as written"), "as written", "as written", "as written"},
		{Sentence{}, "", "", ""},
	}
	for _, c := range cases {
		for lang, want := range map[string]string{"en": c.en, "fr": c.fr, "zh": c.zh} {
			if got := (Speaker{Lang: lang}).Say(c.p); got != want {
				t.Errorf("%s: %q, want %q", lang, got, want)
			}
		}
	}
	if got := (Speaker{Lang: "xx"}).Say(Word(2)); got != "two" {
		t.Errorf("an unknown language: %q", got)
	}
	if got := (Speaker{Lang: "zh", Sheet: true}).Say(Line(3)); got != "第 3 行" {
		t.Errorf("a row in Chinese: %q", got)
	}
	if got := English(Line(3)) + " / " + (Speaker{Sheet: true}).Say(Line(3)); got != "line 3 / row 3" {
		t.Errorf("a line and a row: %q", got)
	}
}

// A flag and a command, said by each face: on the command line as typed,
// in the page as its field or button (in the page's language), in MCP as
// the tool or argument.
func TestFacesSayFlagsAndCommands(t *testing.T) {
	cases := []struct {
		p                 Part
		cli, page, pageFR string
		pageZH, mcp       string
	}{
		{Timeout, "--timeout", "Timeout, in Settings", "Délai maximal, dans les Réglages", "“设置”中的“超时”", "--timeout"},
		{MaxRows, "--max-rows", "Rows shown per answer, in Settings", "Lignes affichées par réponse, dans les Réglages", "“设置”中的“每个回答显示的行数”", "the max_rows argument"},
		{Model.With("NAME"), "--model NAME", "Model, in Settings", "Modèle, dans les Réglages", "“设置”中的“模型”", "the model argument"},
		{Ollama, "--ollama", "Ollama address, in Settings", "Adresse d’Ollama, dans les Réglages", "“设置”中的“Ollama 地址”", "--ollama"},
		{AllowSuperuser, "--allow-superuser", "Allow superusers, in Settings", "Autoriser les superutilisateurs, dans les Réglages", "“设置”中的“允许超级用户”", "--allow-superuser"},
		{SQL, "querent sql", "the SQL editor", "l’éditeur SQL", "SQL 编辑器", "run_query"},
		{Schema, "querent schema", "the sidebar", "le panneau latéral", "侧边栏", "list_tables"},
		{Import.With(Preview), "querent import --preview", "Import CSV or Excel files", "Importer des fichiers CSV ou Excel", "“导入 CSV 或 Excel 文件”", "querent import --preview"},
		{Encoding.With("utf-16"), "--encoding utf-16", "Encoding, in the import's options", "Encodage, dans les options de l’import", "导入选项中的“编码”", "--encoding utf-16"},
		{Ragged.With("pad"), "--ragged pad", "“Accept rows with missing fields” in the import's options",
			"« Accepter les lignes avec des champs manquants » dans les options de l’import", "导入选项中的“接受缺少字段的行”", "--ragged pad"},
		{HeaderRow, "--header-row", "Header line, in the import's options", "Ligne d’en-tête, dans les options de l’import", "导入选项中的“标题行”", "--header-row"},
		{Sheet, "--sheet", "“import this table”, in the preview", "« importer cette table », dans l’aperçu", "预览中的“导入此表”", "--sheet"},
		{Column.With(`"a:date:null-bad"`), `--column "a:date:null-bad"`, "the column's type and bad values, in the preview",
			"le type et les valeurs invalides de la colonne, dans l’aperçu", "预览中该列的类型和无效值", `--column "a:date:null-bad"`},
		{Skip, "--skip", "“leave out”, on the column in the preview", "« écarter », sur la colonne dans l’aperçu", "预览中该列的“略去”", "--skip"},
		{Table.With("NAME"), "--table NAME", "Table name, in the import's options", "Nom de la table, dans les options de l’import", "导入选项中的“表名”", "--table NAME"},
		{Replace, "--replace", "replacing the table", "remplacer la table", "替换表", "--replace"},
		{Append, "--append", "adding the rows", "ajouter les lignes", "追加行", "--append"},
		{ReplaceUserTable, "--replace-user-table", "replacing a table Querent did not import", "remplacer une table que Querent n’a pas importée", "替换非 Querent 导入的表", "--replace-user-table"},
		{MCP, "querent mcp", "querent mcp", "querent mcp", "querent mcp", "querent mcp"},
	}
	for _, c := range cases {
		got := []string{English(c.p), Speaker{Lang: "en", Face: Page}.Say(c.p), Speaker{Lang: "fr", Face: Page}.Say(c.p),
			Speaker{Lang: "zh", Face: Page}.Say(c.p), Speaker{Lang: "en", Face: Agent}.Say(c.p)}
		want := []string{c.cli, c.page, c.pageFR, c.pageZH, c.mcp}
		if !slices.Equal(got, want) {
			t.Errorf("%v:\ngot  %q\nwant %q", c.p, got, want)
		}
	}
}

// The hints as the engine builds them: the command line's English byte for
// byte what it printed before, the page's words without a flag or a
// command in any language, MCP's with its tools and arguments.
func TestHintsByFace(t *testing.T) {
	addr := New("ollama.check_address", Ollama)
	utf16 := New("import.utf16_no_bom", Encoding.With("utf-16"))
	cases := []struct {
		s             Sentence
		cli, page, mc string
	}{
		{New("hint.deadline", Timeout), "allow more time (--timeout) or ask for less",
			"allow more time (Timeout, in Settings) or ask for less", "ask for less (filter, aggregate, LIMIT)"},
		{New("hint.cheaper", Timeout),
			"make it cheaper (filter with WHERE, join on key columns, aggregate before joining, add LIMIT) or allow more time with --timeout",
			"make it cheaper (filter with WHERE, join on key columns, aggregate before joining, add LIMIT) or allow more time (Timeout, in Settings)",
			"make it cheaper (filter with WHERE, join on key columns, aggregate before joining, add LIMIT)"},
		{New("hint.column_in_schema", Schema), "check the column's name in the schema (querent schema)",
			"check the column's name in the sidebar", "check the column's name in the schema (list_tables)"},
		{New("hint.tables_hold", Schema), "ask about what the tables hold (querent schema lists them)",
			"ask about what the tables hold (the sidebar lists them)", "ask about what the tables hold (list_tables lists them)"},
		{New("hint.choose_model", Model.With("NAME")), "choose an installed model (--model NAME); `ollama list` shows them",
			"choose an installed model (Model, in Settings); `ollama list` shows them", "choose an installed model (the model argument); `ollama list` shows them"},
		{New("hint.another_model", Model), "try again, or try another model (--model)",
			"try again, or choose another model (Model, in Settings)", "try again, or try another model (the model argument)"},
		{New("hint.no_working_query", Model, SQL),
			"rephrase the question (name the tables or columns you mean), try another model with --model, or write the SQL yourself with querent sql",
			"rephrase the question (name the tables or columns you mean), choose another model (Model, in Settings), or write the SQL yourself in the SQL editor",
			"rephrase the question (name the tables or columns you mean), try another model (the model argument), or write the SQL yourself with run_query"},
		{New("hint.write_instead", SQL), "ask what you want to see instead; nothing can change the database from here",
			"ask what you want to see instead; nothing can change the database from here",
			"ask what you want to see instead, or read with run_query; nothing can change the database from here"},
		{New("hint.write_rows", Value("SELECT * FROM t"), SQL), "to see the rows it would change, run: SELECT * FROM t",
			"to see the rows it would change, run: SELECT * FROM t", "to see the rows it would change, call run_query with: SELECT * FROM t"},
		{New("ollama.fix_address", Ollama), "fix --ollama: give host:port or a URL, for example 127.0.0.1:11434 or http://gpu-box:11434",
			"fix the address (Ollama address, in Settings): give host:port or a URL, for example 127.0.0.1:11434 or http://gpu-box:11434", ""},
		{New("ollama.no_credentials", addr), "Querent talks to a local Ollama without credentials; check the address given by --ollama or OLLAMA_HOST",
			"Querent talks to a local Ollama without credentials; check the address (Ollama address, in Settings) or OLLAMA_HOST", ""},
		{New("ollama.up_to_date", addr), "check the address given by --ollama or OLLAMA_HOST, and that Ollama is up to date",
			"check the address (Ollama address, in Settings) or OLLAMA_HOST, and that Ollama is up to date", ""},
		{Sentence{Parts: []Part{List(Semi, addr, New("ollama.sql_works", SQL))}},
			"check the address given by --ollama or OLLAMA_HOST; direct SQL (querent sql) works without Ollama",
			"check the address (Ollama address, in Settings) or OLLAMA_HOST; direct SQL works without Ollama",
			"check the address given by --ollama or OLLAMA_HOST; run_query works without Ollama"},
		{Seq(New("ollama.start", New("ollama.sql_works_it", SQL)), New("ollama.elsewhere", addr)),
			"start it: open the Ollama app, or run `ollama serve` in a terminal; direct SQL (querent sql) works without it; if Ollama runs elsewhere, check the address given by --ollama or OLLAMA_HOST",
			"start it: open the Ollama app, or run `ollama serve` in a terminal; direct SQL works without it; if Ollama runs elsewhere, check the address (Ollama address, in Settings) or OLLAMA_HOST",
			"start it: open the Ollama app, or run `ollama serve` in a terminal; run_query works without it; if Ollama runs elsewhere, check the address given by --ollama or OLLAMA_HOST"},
		{New("ollama.slow_first", ModelTimeout), "a first request loads the model and can be slow; try again, use a smaller model, or raise --model-timeout",
			"a first request loads the model and can be slow; try again, or use a smaller model", "a first request loads the model and can be slow; try again, use a smaller model"},
		{New("role.superuser_refused_hint", Value("CREATE ROLE …"), AllowSuperuser),
			"connect as a SELECT-only role (as the database's owner: CREATE ROLE …), or allow superusers explicitly (--allow-superuser; in the app, Settings)",
			"connect as a SELECT-only role (as the database's owner: CREATE ROLE …), or allow superusers explicitly (Allow superusers, in Settings)", ""},
		{New("tls.in_clear", Value("db.example.com"), New("tls.sslmode_require")),
			"the connection to db.example.com is not encrypted: the queries and their answers cross the network in clear (sslmode=require encrypts it)",
			"the connection to db.example.com is not encrypted: the queries and their answers cross the network in clear (the SSL mode Require encrypts it)", ""},
		{New("eval.check_gold", DB, Gold), "check --db and --gold: the gold queries must run on the database",
			"check the gold set and the open database: the gold queries must run on the database", ""},
		{New("eval.regrade", Gold), "regrade records with the gold set they were made with (--gold)", "regrade records with the gold set they were made with", ""},
		{New("eval.another_model", Model), "try another model (--model)", "try another model", "try another model (the model argument)"},
		{New("eval.replace", Force), "choose another file, or replace it with --force", "choose another file, or replace it when the save dialog asks", ""},
		{New("export.name_out", Out.With("FILE.xlsx"), Out.With("FILE.csv")), "name one with --out FILE.xlsx or --out FILE.csv", "choose where to save the export", ""},
		{New("export.chart_csv", Chart.With("bar"), Chart), "export to .xlsx for --chart bar, or leave --chart out", "export to .xlsx for a chart, or leave the chart out", ""},
		{New("export.csv_only", Delimiter), "--delimiter applies to CSV only", "the separator applies to CSV only", ""},
		{New("export.csv_only", BOM), "--bom applies to CSV only", "the byte-order mark applies to CSV only", ""},
		{New("export.csv_only_raw", Raw), "--raw applies to CSV only (XLSX always stores text as text, never as a formula)",
			"the Raw values option applies to CSV only (XLSX always stores text as text, never as a formula)", ""},
		{New("export.negative_rows", MaxRows), "--max-rows must not be negative", "the row limit must not be negative", ""},
		{New("export.open_db", Value("x.db"), Force), "x.db is the open database: an export never replaces it, even with --force",
			"x.db is the open database: an export never replaces it", ""},
		{New("export.sidecar", Value("x.db-wal"), Value("wal"), Force), "x.db-wal is the open database's wal file: an export never replaces it, even with --force",
			"x.db-wal is the open database's wal file: an export never replaces it", ""},
		{New("export.sqlite_file", Value("y.db"), New("export.kind_wal"), Force), "y.db is a SQLite write-ahead log: an export never replaces one, even with --force",
			"y.db is a SQLite write-ahead log: an export never replaces one", ""},
		{New("export.exists", Force), "use --force to replace it, or choose another file", "choose another file name, or replace the file when the save dialog asks", ""},
		{New("export.row_limit", Count(1000), MaxRows), "the export stopped at the row limit: 1,000 rows were written (--max-rows)",
			"the export stopped at the row limit: 1,000 rows were written", ""},
		{New("import.preview_column", Import.With(Preview)),
			"name a column as the preview shows it (querent import --preview), by its header as written, or by its position (#3)",
			"name a column as the preview shows it, by its header as written, or by its position (#3)", ""},
		{New("import.csv_columns", Skip, HeaderRow), "choose a CSV file's columns with --skip and its header with --header-row",
			"choose a CSV file's columns by leaving out the others, and its header line (Header line, in the import's options)", ""},
		{New("import.pad_short", Ragged.With("pad")), "fix the row, or use --ragged pad to fill short rows with empty (NULL) values",
			"fix the row, or tick “Accept rows with missing fields” in the import's options to fill short rows with empty (NULL) values", ""},
		{New("import.pad_ragged", Ragged.With("pad")), "fix the row, or use --ragged pad to drop empty extra fields and fill short rows with NULL",
			"fix the row, or tick “Accept rows with missing fields” in the import's options to drop empty extra fields and fill short rows with NULL", ""},
		{New("import.open_directly", SQL.With(DB.With("/tmp/a.sqlite"))), "open it directly: querent sql --db /tmp/a.sqlite",
			"open it directly with Open a database", ""},
		{New("import.csv_or_xlsx", utf16), "import a CSV, XLSX or JSON file; a UTF-16 file without a byte-order mark needs --encoding utf-16",
			"import a CSV, XLSX or JSON file; a UTF-16 file without a byte-order mark needs the encoding UTF-16 (Encoding, in the import's options)", ""},
		{New("import.export_csv", utf16), "export the data as CSV (UTF-8) and import that; a UTF-16 file without a byte-order mark needs --encoding utf-16",
			"export the data as CSV (UTF-8) and import that; a UTF-16 file without a byte-order mark needs the encoding UTF-16 (Encoding, in the import's options)", ""},
		{New("import.if_windows_1252", Encoding.With("windows-1252")), "if the file is in Windows-1252, import it with --encoding windows-1252",
			"if the file is in Windows-1252, import it again with the encoding Windows-1252 (Encoding, in the import's options)", ""},
		{New("import.read_as_1252", Encoding), "the file is not UTF-8; it was read as Windows-1252 (use --encoding to choose another)",
			"the file is not UTF-8; it was read as Windows-1252 (to choose another: Encoding, in the import's options)", ""},
		{New("import.name_sheet", Sheet), "name one of its sheets with --sheet, or leave --sheet out to import every sheet",
			"import every sheet, or name one that is in the workbook", ""},
		{New("import.fewer_sheets", Sheet), "split the workbook or import fewer sheets at a time (--sheet); with other files, import them one at a time",
			"split the workbook or import fewer sheets at a time; with other files, import them one at a time", ""},
		{New("import.null_bad", Column.With(`"start:date:null-bad"`)),
			`store such values as NULL (the policy null, --column "start:date:null-bad"), keep the column as text, or correct the file`,
			"store such values as NULL (“bad values: store as NULL” on the column), keep the column as text, or correct the file", ""},
		{New("hint.cheaper_stream", Timeout),
			"make it cheaper (filter with WHERE, join on key columns, aggregate before joining) or allow more time with --timeout",
			"make it cheaper (filter with WHERE, join on key columns, aggregate before joining) or allow more time (Timeout, in Settings)",
			"make it cheaper (filter with WHERE, join on key columns, aggregate before joining)"},
		{New("hint.reopen_changed", MCP, Serve),
			"open it again to read it as it is now (restart querent mcp or querent serve, or open the file again in the app)",
			"open the file again to read it as it is now", ""},
		{New("open.empty_file", Import.With(DB.With("new.sqlite"), Value("data.csv"))),
			"choose another file; to build a database from CSV or XLSX files, use: querent import --db new.sqlite data.csv",
			"choose another file; to build a database from CSV or XLSX files, use Import CSV or Excel files on the start screen", ""},
		{New("open.import_spreadsheet", Import.With(DB.With("new.sqlite"), Value("'my book.xlsx'"))),
			"to query a spreadsheet, import it: querent import --db new.sqlite 'my book.xlsx'",
			"to query a spreadsheet, import it with Import CSV or Excel files on the start screen", ""},
		{New("open.save_as", Import), "save it as .xlsx or .csv in your spreadsheet program, then import it with querent import",
			"save it as .xlsx or .csv in your spreadsheet program, then import it with Import CSV or Excel files", ""},
		{New("open.import_csv", Import.With(DB.With("new.sqlite"), Value("data.csv"))),
			"to query CSV data, import it into a database: querent import --db new.sqlite data.csv",
			"to query CSV data, import it with Import CSV or Excel files on the start screen", ""},
		{New("target.give_name", DB, Value("/tmp/x/data.sqlite")), "give --db a file name, such as /tmp/x/data.sqlite",
			"give the new database a file name, such as /tmp/x/data.sqlite", ""},
		{New("target.not_together", ReplaceUserTable, Append), "--replace-user-table and --append cannot be used together",
			"replacing a table Querent did not import and adding the rows cannot be used together", ""},
		{New("target.not_together", Replace, Append), "--replace and --append cannot be used together",
			"replacing the table and adding the rows cannot be used together", ""},
		{New("target.table_one", Table, Value("2")), "--table names one table, but this import makes 2",
			"a table name names one table, but this import makes 2", ""},
		{New("target.one_at_a_time", Table), "import the files one at a time, or leave out --table to name each table after its file or sheet",
			"import the files one at a time, or leave the table name empty to name each table after its file or sheet", ""},
		{New("target.bad_table_name", Table, Quoted("1x")), `--table "1x" is not a usable table name`, `"1x" is not a usable table name`, ""},
		{New("target.other_target", DB), "write to another file with --db", "choose another name for the new database", ""},
		{New("target.sqlite_only", DB), "Querent writes only into SQLite files; name a new file with --db to create one",
			"Querent writes only into SQLite files; name a new file to create one", ""},
		{New("target.other_table_name", Table), "choose another table name with --table",
			"choose another table name (Table name, in the import's options)", ""},
		{New("target.exists_choose", Replace, Append, Table.With("NAME")),
			"choose what to do: --replace to replace that table, --append to add the rows to it, or --table NAME to import into a new table",
			"choose what to do if a table exists: replace it, add the rows to it, or import into a new table (Table name, in the import's options)", ""},
		{New("target.create_folder", DB), "create it first, or choose another --db path",
			"create it first, or choose another place for the new database", ""},
		{New("target.new_file_instead", DB.With("/tmp/x-imported.sqlite"), Value("/tmp/x-imported.sqlite")),
			"import into a new database file instead, such as --db /tmp/x-imported.sqlite",
			"import into a new database file instead, such as /tmp/x-imported.sqlite", ""},
		{New("target.user_table", Value("x.sqlite"), Value("t"), Value("1,234"), Replace),
			"x.sqlite has a table named t that Querent did not import (1,234 rows): --replace replaces only tables Querent imported",
			"x.sqlite has a table named t that Querent did not import (1,234 rows): only tables Querent imported are replaced", ""},
		{New("target.user_table_hint", ReplaceUserTable, Table.With("NAME")),
			"to replace it anyway, use --replace-user-table; to keep it, use --table NAME to import into a new table",
			"to keep it, import under another table name (Table name, in the import's options)", ""},
		{New("target.append_same", Replace, Table.With("NAME")),
			"append only files with the same columns in the same order, or use --replace, or --table NAME for a new table",
			"append only files with the same columns in the same order, or replace the table, or import into a new table (Table name, in the import's options)", ""},
		{New("target.keep_unnamed", Seq(Column.With(`"#3:text"`), Value(" "), Column.With(`"#5:text"`)), Values(Comma, "#3", "#5")),
			`the table has empty unnamed columns that this import leaves out (one rule for CSV and XLSX); to append, keep them: --column "#3:text" --column "#5:text"`,
			"the table has empty unnamed columns that this import leaves out (one rule for CSV and XLSX); to append, keep them as text: #3, #5", ""},
		{New("target.read_only", DB), "the file or its folder is read-only; choose a file you may write with --db",
			"the file or its folder is read-only; choose a place you may write for the new database", ""},
		{New("target.appeared", DB), "run the import again to add to it, or choose another --db",
			"run the import again to add to it, or choose another name for the new database", ""},
	}
	for _, c := range cases {
		if got := English(c.s); got != c.cli {
			t.Errorf("command line:\ngot  %q\nwant %q", got, c.cli)
		}
		if got := (Speaker{Lang: "en", Face: Page}).Say(c.s); got != c.page {
			t.Errorf("page:\ngot  %q\nwant %q", got, c.page)
		}
		if c.mc != "" {
			if got := (Speaker{Lang: "en", Face: Agent}).Say(c.s); got != c.mc {
				t.Errorf("MCP:\ngot  %q\nwant %q", got, c.mc)
			}
		}
		for _, lang := range Languages {
			got := Speaker{Lang: lang, Face: Page}.Say(c.s)
			if strings.Contains(got, "--") || strings.Contains(got, "querent ") || got == "" {
				t.Errorf("the page in %s names the command line: %q", lang, got)
			}
			if lang != "en" && got == c.page {
				t.Errorf("the page in %s says English: %q", lang, got)
			}
		}
	}
}

// What a face may recognise a message by: its key, not its English.
func TestMainKeyAndPlain(t *testing.T) {
	s := Seq(Value("postgres://db: "), New("role.superuser_refused", Value("postgres")))
	if s.MainKey() != "role.superuser_refused" || s.IsPlain() {
		t.Errorf("key %q, plain %v", s.MainKey(), s.IsPlain())
	}
	if p := Plain("x"); !p.IsPlain() || p.MainKey() != "" || p.IsZero() {
		t.Errorf("plain: %v %q %v", p.IsPlain(), p.MainKey(), p.IsZero())
	}
	if !(Sentence{}).IsZero() || New("role.etc").IsPlain() {
		t.Error("zero or keyed")
	}
	every := Speaker{Face: Page}.Every(New("tls.sslmode_require"))
	if len(every) != len(Languages) || every["fr"] != "le mode SSL Exiger" || every["zh"] != "SSL 模式“必须”" {
		t.Errorf("every language: %q", every)
	}
}

// The import's hints name their flags on the command line in every
// language (as typed, never translated), and the page's options instead.
func TestImportHintsNameTheirFlags(t *testing.T) {
	cases := []struct {
		s    Sentence
		flag string
	}{
		{New("import.csv_columns", Skip, HeaderRow), "--header-row"},
		{New("import.pad_short", Ragged.With("pad")), "--ragged pad"},
		{New("import.pad_ragged", Ragged.With("pad")), "--ragged pad"},
		{New("import.open_directly", SQL.With(DB.With("a.sqlite"))), "querent sql --db a.sqlite"},
		{New("import.csv_or_xlsx", New("import.utf16_no_bom", Encoding.With("utf-16"))), "--encoding utf-16"},
		{New("import.export_csv", New("import.utf16_no_bom", Encoding.With("utf-16"))), "--encoding utf-16"},
		{New("import.if_windows_1252", Encoding.With("windows-1252")), "--encoding windows-1252"},
		{New("import.read_as_1252", Encoding), "--encoding"},
		{New("import.name_sheet", Sheet), "--sheet"},
		{New("import.fewer_sheets", Sheet), "--sheet"},
		{New("import.null_bad", Column.With(`"a:date:null-bad"`)), `--column "a:date:null-bad"`},
	}
	for _, c := range cases {
		for _, lang := range Languages {
			if got := (Speaker{Lang: lang}).Say(c.s); !strings.Contains(got, c.flag) {
				t.Errorf("%s %s on the command line: %q names no %s", lang, c.s.Key, got, c.flag)
			}
			if got := (Speaker{Lang: lang, Face: Page}).Say(c.s); namesCommandLine(got) {
				t.Errorf("%s %s in the page: %q", lang, c.s.Key, got)
			}
		}
	}
	if got := (Speaker{Lang: "en"}).Say(New("import.name_sheet", Sheet)); strings.Count(got, "--sheet") != 2 {
		t.Errorf("a part cited twice: %q", got)
	}
}

// namesCommandLine reports text that names a flag or a querent command.
func namesCommandLine(s string) bool {
	return strings.Contains(s, "--") || strings.Contains(s, "querent ")
}
