// Package words says Querent's sentences in the user's language, for the
// face that shows them: one mechanism for the reasons of a chart and of an
// import, the warnings of a connection and the hints of errors.
//
// A Sentence is a key of the tables and the parts it cites: {1} … {9} in a
// table's text are its parts, each said in the language (names and values
// as they are, counts with the language's separators, lists joined the
// language's way, nested sentences). Each language of Languages is one
// table (en.go, fr.go, zh.go); English says exactly what the engine always
// said on the command line.
//
// A Face is who shows a sentence. The engine's hints name the ways on, and
// each face has its own: a flag on the command line (--timeout), a field of
// the page's Settings (Timeout, in Settings), an argument of an MCP tool
// (the model argument). A Flag or a Command is a part that each face says
// its own way, and a sentence whose grammar changes with the face has a
// variant for it in the tables (key@page, key@mcp), so that no face ever
// rewrites English.
//
// Why not github.com/nicksnyder/go-i18n or golang.org/x/text/message: both
// format one message from flat arguments (a template's map, printf's
// verbs), while a reason nests sentences in sentences, joins lists of them,
// and says flags per face; the plural forms Querent needs (one and many)
// are two keys. A hand-made table keeps the English byte for byte what the
// command line printed before (tests compare 140,000 reasons), and the
// rendering in one file.
package words

import (
	"strconv"
	"strings"
)

// Languages are the languages every sentence is said in: those of the page
// (and of an exported workbook's own words).
var Languages = []string{"en", "fr", "zh"}

// Face is who shows a sentence: it picks the sentences' variants (key@face)
// and says Flag and Command parts its own way.
type Face string

// The faces.
const (
	// CommandLine is the engine's own words: flags as --name, commands as
	// querent name. It has no variants.
	CommandLine Face = ""
	// Page is the page (the desktop window and the browser mode): the
	// fields of Settings and of its dialogs, in every language.
	Page Face = "page"
	// Agent is the MCP server: the tools and their arguments, in English
	// (agents read English; its variants are in the English table only).
	Agent Face = "mcp"
)

// Said is one sentence said in each language of Languages (language →
// text), for one face: what a face that speaks several languages hands
// over, so that it shows the language on screen and a change of language
// needs no round trip.
type Said map[string]string

// A Part is a piece of a sentence: a value, a count, a list, a flag, a
// nested sentence. A nil Part says nothing.
type Part interface {
	say(sp *speaker) string
}

// speaker says parts in one language for one face.
type speaker struct {
	lang  *language
	face  Face
	sheet bool
}

// Speaker says parts in one language, for one face.
type Speaker struct {
	// Lang is one of Languages; any other says English.
	Lang string
	// Face picks the variants and says flags and commands.
	Face Face
	// Sheet says a workbook's rows where a file has lines (Line parts).
	Sheet bool
}

// Say says p.
func (s Speaker) Say(p Part) string {
	if p == nil {
		return ""
	}
	l := languages[s.Lang]
	if l == nil {
		l = languages["en"]
	}
	return p.say(&speaker{lang: l, face: s.Face, sheet: s.Sheet})
}

// Every says p in every language of Languages (s.Lang aside).
func (s Speaker) Every(p Part) Said {
	out := make(Said, len(Languages))
	for _, lang := range Languages {
		s.Lang = lang
		out[lang] = s.Say(p)
	}
	return out
}

// English says p in English on the command line: the engine's Message,
// Hint and warnings.
func English(p Part) string { return Speaker{Lang: "en"}.Say(p) }

// Sentence is a key of the tables and the parts it cites ({1} is Parts[0]).
// A Sentence without a key says its parts one after the other (Seq, Plain).
// The zero Sentence says nothing.
type Sentence struct {
	Key   string
	Parts []Part
}

// New returns the sentence key citing parts.
func New(key string, parts ...Part) Sentence { return Sentence{Key: key, Parts: parts} }

// Seq is parts said one after the other: a reason and its notes (each
// note's sentence starting with its separator), a name and its message.
func Seq(parts ...Part) Sentence { return Sentence{Parts: parts} }

// Plain is text the engine wrote in English only (not yet in the tables):
// said as it is in every language and by every face.
func Plain(text string) Sentence { return Sentence{Parts: []Part{Value(text)}} }

// IsZero reports the zero Sentence, which says nothing.
func (s Sentence) IsZero() bool { return s.Key == "" && len(s.Parts) == 0 }

// IsPlain reports a sentence that cites no key of the tables: text the
// engine wrote in English only.
func (s Sentence) IsPlain() bool {
	if s.Key != "" {
		return false
	}
	for _, p := range s.Parts {
		switch q := p.(type) {
		case nil, Value:
		case Sentence:
			if !q.IsPlain() {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// MainKey is the key of s, or the first key of what a sequence holds (a
// message after its database's name): what a face may recognise a message
// by, rather than by its English.
func (s Sentence) MainKey() string {
	if s.Key != "" {
		return s.Key
	}
	for _, p := range s.Parts {
		if q, ok := p.(Sentence); ok {
			if k := q.MainKey(); k != "" {
				return k
			}
		}
	}
	return ""
}

// String is the sentence in English on the command line.
func (s Sentence) String() string { return English(s) }

func (s Sentence) say(sp *speaker) string {
	if s.Key == "" {
		var b strings.Builder
		for _, p := range s.Parts {
			if p != nil {
				b.WriteString(p.say(sp))
			}
		}
		return b.String()
	}
	return sp.fill(sp.text(s.Key), s.Parts)
}

// text is the table's text of key in the speaker's language for its face:
// key@face before key, the language's before English's. A key no table has
// says itself, which the tests catch.
func (sp *speaker) text(key string) string {
	en := languages["en"]
	for _, l := range []*language{sp.lang, en} {
		if sp.face != "" {
			if t, ok := l.sentences[key+"@"+string(sp.face)]; ok {
				return t
			}
		}
		if t, ok := l.sentences[key]; ok {
			return t
		}
	}
	return key
}

// fill replaces {1} … {9} in t by the parts said (nothing for a missing
// or nil part).
func (sp *speaker) fill(t string, parts []Part) string {
	if strings.IndexByte(t, '{') < 0 {
		return t
	}
	var b strings.Builder
	for i := 0; i < len(t); i++ {
		if t[i] == '{' && i+2 < len(t) && t[i+1] >= '1' && t[i+1] <= '9' && t[i+2] == '}' {
			if j := int(t[i+1] - '1'); j < len(parts) && parts[j] != nil {
				b.WriteString(parts[j].say(sp))
			}
			i += 2
			continue
		}
		b.WriteByte(t[i])
	}
	return b.String()
}

// Value is said as it is in every language: a name, a value from the data,
// a currency sign, a format pattern, a type name, SQL, a path.
type Value string

func (v Value) say(*speaker) string { return string(v) }

// Quoted is a value from the data, quoted the language's way (between
// straight quotes in English). What cannot be seen is escaped as Go does
// (a tab is \t, a line break \n); a quote inside stays a quote ("A.D."
// between quotes reads ""A.D."", never \"A.D.\").
type Quoted string

func (v Quoted) say(sp *speaker) string {
	q := strconv.Quote(string(v))
	open, close := sp.lang.open, sp.lang.close
	if open == "" {
		open, close = `"`, `"`
	}
	return open + strings.ReplaceAll(q[1:len(q)-1], `\"`, `"`) + close
}

// Count is a count in digits, with the language's thousands separator.
type Count int64

func (n Count) say(sp *speaker) string {
	s := strconv.FormatInt(int64(n), 10)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteString(sp.lang.thousands)
		}
		b.WriteRune(c)
	}
	return b.String()
}

// Word is a small count said as a word where the language writes one
// ("three columns"), else in digits ("3 列").
type Word int

func (n Word) say(sp *speaker) string {
	if 0 <= n && int(n) < len(sp.lang.numbers) {
		return sp.lang.numbers[n]
	}
	return strconv.Itoa(int(n))
}

// Line is a line of a file ("line 57"), or a row of a sheet ("row 57") for
// a Speaker with Sheet set.
type Line int64

func (n Line) say(sp *speaker) string {
	key := "line"
	if sp.sheet {
		key = "row"
	}
	return sp.fill(sp.text(key), []Part{Value(strconv.FormatInt(int64(n), 10))})
}

// Sep is how a List joins its items.
type Sep int

// The separators of lists.
const (
	Comma     Sep = iota // between values: "a, b, c"
	Semi                 // between notes: "a; b"
	Or                   // between alternatives: "yes or no"
	Sentences            // between sentences: "Did you mean x? T has: a, b." (none in Chinese)
)

type list struct {
	sep   Sep
	items []Part
}

// List joins items with the language's separator.
func List(sep Sep, items ...Part) Part { return list{sep: sep, items: items} }

// Values lists values from the data.
func Values(sep Sep, vs ...string) Part {
	items := make([]Part, len(vs))
	for i, v := range vs {
		items[i] = Value(v)
	}
	return list{sep: sep, items: items}
}

func (x list) say(sp *speaker) string {
	s := sp.lang.comma
	switch x.sep {
	case Semi:
		s = sp.lang.semi
	case Or:
		s = sp.lang.or
	case Sentences:
		s = sp.lang.between
	}
	parts := make([]string, 0, len(x.items))
	for _, p := range x.items {
		if p != nil {
			parts = append(parts, p.say(sp))
		}
	}
	return strings.Join(parts, s)
}

type and struct {
	max   int
	items []Part
}

// And lists names the language's way: "A", "A and B", "A, B and C"; past
// max, the first max-1 and how many more ("A, B, C and 3 more"). A max
// under 2 lists them all.
func And(max int, names ...string) Part {
	items := make([]Part, len(names))
	for i, n := range names {
		items[i] = Value(n)
	}
	return and{max: max, items: items}
}

func (x and) say(sp *speaker) string {
	said := make([]string, len(x.items))
	for i, p := range x.items {
		if p != nil {
			said[i] = p.say(sp)
		}
	}
	l := sp.lang
	if x.max >= 2 && len(said) > x.max {
		shown := said[:x.max-1]
		more := sp.fill(sp.text("more"), []Part{Value(strconv.Itoa(len(said) - len(shown)))})
		return strings.Join(shown, l.comma) + l.andMore + more
	}
	switch len(said) {
	case 0:
		return ""
	case 1:
		return said[0]
	}
	return strings.Join(said[:len(said)-1], l.comma) + l.and + said[len(said)-1]
}

type either struct{ items []Part }

// Either lists alternatives the language's way: "A", "A or B", "A, B or C".
func Either(names ...string) Part {
	items := make([]Part, len(names))
	for i, n := range names {
		items[i] = Value(n)
	}
	return either{items}
}

func (x either) say(sp *speaker) string {
	said := make([]string, len(x.items))
	for i, p := range x.items {
		if p != nil {
			said[i] = p.say(sp)
		}
	}
	if len(said) < 2 {
		return strings.Join(said, "")
	}
	return strings.Join(said[:len(said)-1], sp.lang.comma) + sp.lang.or + said[len(said)-1]
}

// Flag is a command-line flag, the way on that a hint names: --name on the
// command line, its field in the page (flag.NAME@page: "Timeout, in
// Settings"), its argument in MCP (flag.NAME@mcp: "the model argument").
// A face the tables give no words for says the command line's.
type Flag string

// The flags the engine's sentences name.
const (
	Timeout        Flag = "timeout"
	MaxRows        Flag = "max-rows"
	Model          Flag = "model"
	ModelTimeout   Flag = "model-timeout"
	Ollama         Flag = "ollama"
	AllowSuperuser Flag = "allow-superuser"
	DB             Flag = "db"
	Gold           Flag = "gold"
	// Compare is querent eval's list of prompt variants (issue 23 §4).
	Compare   Flag = "compare"
	Force     Flag = "force"
	Out       Flag = "out"
	Chart     Flag = "chart"
	Delimiter Flag = "delimiter"
	BOM       Flag = "bom"
	Raw       Flag = "raw"
	Preview   Flag = "preview"
	// The import's flags (querent import --FLAG).
	Encoding  Flag = "encoding"
	Ragged    Flag = "ragged"
	HeaderRow Flag = "header-row"
	Sheet     Flag = "sheet"
	Column    Flag = "column"
	Skip      Flag = "skip"
	// The flags of an import's target (engine/sqlite).
	Table            Flag = "table"
	Replace          Flag = "replace"
	Append           Flag = "append"
	ReplaceUserTable Flag = "replace-user-table"
	// The glossary's flags (querent glossary add --FLAG).
	Meaning Flag = "meaning"
	// SQLText is the SQL of a correction (querent history correct --sql)
	// and of a glossary entry (querent glossary add --sql).
	SQLText Flag = "sql"
	// ListModels lists the models with their windows (querent ask
	// --list-models; the model list in the page's Settings); Think turns a
	// thinking model's thinking on (querent ask --think; the page's
	// per-model setting).
	ListModels Flag = "list-models"
	Think      Flag = "think"
)

// Flags are the flags above, for the tests.
var Flags = []Flag{Timeout, MaxRows, Model, ModelTimeout, Ollama, AllowSuperuser, DB, Gold, Compare, Force, Out, Chart, Delimiter, BOM, Raw, Preview,
	Encoding, Ragged, HeaderRow, Sheet, Column, Skip, Table, Replace, Append, ReplaceUserTable, Meaning, SQLText, ListModels, Think}

func (f Flag) say(sp *speaker) string { return flagWith{f, ""}.say(sp) }

// With is the flag with its value: --model NAME on the command line (a
// face's words cite the value as {1}).
func (f Flag) With(value string) Part { return flagWith{f, value} }

type flagWith struct {
	flag  Flag
	value string
}

func (f flagWith) say(sp *speaker) string {
	if sp.face != CommandLine {
		if t, ok := sp.faceText("flag." + string(f.flag)); ok {
			return sp.fill(t, []Part{Value(f.value)})
		}
	}
	if f.value == "" {
		return "--" + string(f.flag)
	}
	return "--" + string(f.flag) + " " + f.value
}

// faceText is key@face in the speaker's language, else in English.
func (sp *speaker) faceText(key string) (string, bool) {
	for _, l := range []*language{sp.lang, languages["en"]} {
		if t, ok := l.sentences[key+"@"+string(sp.face)]; ok {
			return t, true
		}
	}
	return "", false
}

// Command is one of the command line's commands, a way on that a hint
// names: querent name on the command line, what does it in the page
// (command.NAME@page: "the SQL editor") and in MCP (command.NAME@mcp:
// "run_query").
type Command string

// The commands the engine's sentences name.
const (
	SQL    Command = "sql"
	Schema Command = "schema"
	Import Command = "import"
	// The commands that keep files open (a file changed meanwhile).
	MCP   Command = "mcp"
	Serve Command = "serve"
	// Glossary is the analyst's glossary: querent glossary on the command
	// line, its panel in the page, list_glossary in MCP.
	Glossary Command = "glossary"
	// History is the history of questions, where the analyst approves and
	// corrects answers (querent history approve|correct).
	History Command = "history"
)

// Commands are the commands above, for the tests.
var Commands = []Command{SQL, Schema, Import, MCP, Serve, Glossary, History}

func (c Command) say(sp *speaker) string { return commandWith{c, nil}.say(sp) }

// With is the command with its flags: querent import --preview on the
// command line (a face's words cite them as {1}).
func (c Command) With(flags ...Part) Part { return commandWith{c, flags} }

type commandWith struct {
	cmd   Command
	flags []Part
}

func (c commandWith) say(sp *speaker) string {
	rest := make([]string, 0, len(c.flags))
	for _, f := range c.flags {
		if f != nil {
			rest = append(rest, f.say(sp))
		}
	}
	if sp.face != CommandLine {
		if t, ok := sp.faceText("command." + string(c.cmd)); ok {
			return sp.fill(t, []Part{Value(strings.Join(rest, " "))})
		}
	}
	return strings.Join(append([]string{"querent " + string(c.cmd)}, rest...), " ")
}

// language is one language's table: its sentences and how it writes
// lists, counts and quotes.
type language struct {
	sentences   map[string]string
	comma       string   // between values
	semi        string   // between notes
	or          string   // between alternatives
	and         string   // before the last name of a list
	andMore     string   // before how many more a long list has
	between     string   // between sentences
	thousands   string   // in counts
	open, close string   // around a quoted value ("": Go quoting)
	numbers     []string // small counts as words (nil: digits)
}

// languages are the tables, by language.
var languages = map[string]*language{"en": &en, "fr": &fr, "zh": &zh}
