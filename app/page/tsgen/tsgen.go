// Package tsgen writes the page's TypeScript types (frontend/src/api/types.gen.ts)
// from the Go types that cross the boundary between app/page's services and
// the page, so that the page cannot drift from the JSON Go sends.
//
// The set of types is the boundary itself: every exported method of every
// service in page.Services (its parameters and results, recursively), the
// payloads of page.PageEvents, and the string unions below. Each type is
// walked with reflect the way encoding/json marshals it:
//
//   - JSON names from the tags; `json:"-"` and unexported fields left out;
//     omitempty and omitzero optional (`?`); `,string` a string;
//   - embedded structs flattened with encoding/json's rules (the shallowest
//     field of a name wins, a tagged one among equals, none when tied); an
//     embedded pointer's fields are typed as present (no service sends a nil
//     one);
//   - a pointer is `T | null`; a slice `T[] | null` and a map
//     `Record<string, T> | null` (a nil one is null) unless the nonNull table
//     says Go never sends null there; a pointer element of a list or map is
//     T (no code puts a nil one there); []byte a base64 string;
//   - time.Time a string, time.Duration a number of nanoseconds, and `any`
//     (engine.Value) the page's Value union (types.ts);
//   - a type with its own MarshalJSON or MarshalText must be in the
//     overrides table, which says its JSON shape; anything else JSON cannot
//     write (a func, a channel, an interface with methods) is an error.
//
// A struct only the page sends (a request) has every field optional: Go's
// decoder leaves a missing one at its zero value. Two packages' types with
// one name are told apart by the package's name in front (desktop's keeps
// the bare name); renames name the few whose own name says too little. Doc
// comments of the Go types, fields and methods become TSDoc comments.
//
// It is a few hundred lines of reflect rather than a dependency: tygo is not
// served by the Go module proxy here, and it reads packages whole rather than
// a boundary, and knows nothing of MarshalJSON.
package tsgen

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"

	"querent/app/page"
	"querent/engine"
	"querent/engine/ask"
	"querent/engine/board"
	"querent/engine/eval"
	"querent/engine/export"
	"querent/engine/glossary"
	"querent/engine/imports"
	"querent/engine/profile"
	"querent/engine/sensitive"
)

// Output is where the generated file goes, from the module's root.
const Output = "frontend/src/api/types.gen.ts"

// override says how a type with its own JSON encoding reaches the page.
type override struct {
	// ts is the TypeScript type; "" with asStruct.
	ts string
	// asStruct: MarshalJSON writes the struct's tagged fields. Generate
	// checks that the zero value marshals with exactly those keys, and
	// types a list it writes as [] (never null) without `| null`.
	asStruct bool
	// uses are the Go types ts names, generated too.
	uses []reflect.Type
}

// overrides are the Go types whose JSON is not what their fields say: read
// each one's MarshalJSON before changing it.
var overrides = map[reflect.Type]override{
	// [{col: value, …}, …] in column order (Rows.MarshalJSON).
	reflect.TypeFor[engine.Rows](): {ts: "Record<string, Value>[]"},
	// {col: [values…], …} in column order (DistinctValues.MarshalJSON).
	reflect.TypeFor[engine.DistinctValues](): {ts: "Record<string, Value[]>"},
	// {col: stats, …} in column order, a missing entry null (ColumnStatsList.MarshalJSON).
	reflect.TypeFor[engine.ColumnStatsList](): {ts: "Record<string, ColumnStats | null>", uses: []reflect.Type{reflect.TypeFor[engine.ColumnStats]()}},
	// The tagged fields in the contract's order, nil lists as [] (ColumnStats.MarshalJSON).
	reflect.TypeFor[engine.ColumnStats](): {asStruct: true},
	// {"value": …, "count": …} (TopValue.MarshalJSON).
	reflect.TypeFor[engine.TopValue](): {asStruct: true},
	// One result cell, as engine.WriteValue writes it (profile.Cell.MarshalJSON).
	reflect.TypeFor[profile.Cell](): {ts: "Value"},
}

// fieldOverrides type single fields, by Go type and field name, where the
// field's Go type says less than the JSON holds.
var fieldOverrides = map[string]override{
	// A map[string]any holding the session (engine.Session.Context), or an
	// object the caller sent back: more than Values.
	"engine.Answer.SessionContext": {ts: "Partial<Session> & Record<string, unknown>", uses: []reflect.Type{reflect.TypeFor[engine.Session]()}},
}

// nonNull lists the slice and map fields (Go type and field name) that Go
// never sends as null, with where it makes sure of it; every other list is
// `T[] | null`, as encoding/json writes a nil one.
var nonNull = map[string]string{
	// engine.NewAnswer makes every list; SetResult and the ask loop replace
	// them only with lists they made (TablesShown stays nil for direct SQL).
	"engine.Answer.Columns":           "NewAnswer",
	"engine.Answer.OptimizationHints": "NewAnswer",
	"engine.Answer.FollowUpQuestions": "NewAnswer",
	"engine.Answer.TablesUsed":        "NewAnswer",
	"engine.Answer.Attempts":          "NewAnswer",
	"engine.Answer.Errors":            "NewAnswer",
	"engine.Answer.Warnings":          "NewAnswer",
	"engine.Answer.MaskedColumns":     "NewAnswer",
	// Sensitive.List and change make both lists.
	"page.SensitiveList.Marks":  "Sensitive.list",
	"page.SensitiveList.Likely": "Sensitive.list",
	// Evaluate.Run makes every list of its result.
	"page.EvalResult.Models":   "Evaluate.Run",
	"page.EvalResult.Items":    "Evaluate.Run",
	"page.EvalResult.Warnings": "Evaluate.Run",
	"page.EvalResult.Errors":   "Evaluate.Run",
	// eval's summarise makes these (the page's only model reports).
	"eval.ModelReport.Items":        "summarise",
	"eval.ModelReport.ByDifficulty": "summarise",
	"eval.ModelReport.Outcomes":     "summarise",
	"eval.ItemScore.Relaxed":        "summarise",
	// engine/board's Load, Take and Diff make every list of a board.
	"page.BoardView.Pins":    "board.Store.Load",
	"board.Snapshot.Columns": "board.Take",
	"board.Snapshot.Rows":    "board.Take",
	"board.Change.Cells":     "board.Diff",
	"board.Change.Totals":    "board.Diff",
}

// renames name Go types whose own names say too little on the page.
var renames = map[reflect.Type]string{
	reflect.TypeFor[export.Request]():   "ExportRequest",
	reflect.TypeFor[export.Report]():    "ExportReport",
	reflect.TypeFor[engine.Turn]():      "SessionTurn",
	reflect.TypeFor[ask.Progress]():     "AskProgress",
	reflect.TypeFor[imports.Column]():   "ImportColumn",
	reflect.TypeFor[imports.Plan]():     "ImportPlan",
	reflect.TypeFor[imports.Progress](): "ImportProgress",
	reflect.TypeFor[imports.Report]():   "ImportReport",
	reflect.TypeFor[glossary.Entry]():   "GlossaryEntry",
	reflect.TypeFor[glossary.Status]():  "GlossaryStatus",
	reflect.TypeFor[board.Pin]():        "BoardPin",
	reflect.TypeFor[board.Snapshot]():   "BoardSnapshot",
	reflect.TypeFor[board.Change]():     "BoardChange",
	reflect.TypeFor[sensitive.Mark]():   "SensitiveMark",
	reflect.TypeFor[sensitive.Likely](): "SensitiveLikely",
}

// union is a string union generated from Go constants.
type union struct {
	name string
	doc  string
	// pkg and prefix: the exported string constants of pkg named prefix…
	pkg, prefix string
	// values, when the Go side lists them in a variable.
	values []string
}

var unions = []union{
	{name: "ErrorType", doc: "The contract's error types (engine.Code…): ErrorDoc.type.", pkg: "querent/engine", prefix: "Code"},
	{name: "Suggestion", doc: "The chart kinds (engine.Chart…): Answer.visualization_suggestion.", pkg: "querent/engine", prefix: "Chart"},
	{name: "Outcome", doc: "The outcomes of one asked question (eval.Outcomes): ItemScore.outcome, EvalProgress.outcome.", values: eval.Outcomes},
}

// services is the boundary: the bound services are the fields of page.Services.
var services = reflect.TypeFor[page.Services]()

var (
	errorType     = reflect.TypeFor[error]()
	marshalerType = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
	timeType      = reflect.TypeFor[time.Time]()
)

// Generate returns the TypeScript file. root is the module's root, for the
// doc comments ("" looks upward from the working directory for go.mod).
func Generate(root string) ([]byte, error) {
	if root == "" {
		var err error
		if root, err = Root(); err != nil {
			return nil, err
		}
	}
	docs, err := newDocs(root)
	if err != nil {
		return nil, err
	}
	g := &gen{docs: docs, index: map[reflect.Type]int{}, queued: map[queued]bool{}}
	svc := g.services()
	g.out = true
	events := g.events()
	for len(g.queue) > 0 {
		q := g.queue[0]
		g.queue = g.queue[1:]
		g.out = q.out
		d := g.decls[g.index[q.t]]
		d.out = d.out || q.out
		d.body = g.declare(q.t)
	}
	// What only the page sends may leave out any field: Go's decoder
	// leaves it at its zero value.
	g.out = false
	for _, d := range g.decls {
		if !d.out && d.t.Kind() == reflect.Struct {
			d.body = g.declare(d.t)
		}
	}
	if len(g.errs) > 0 {
		return nil, errors.Join(g.errs...)
	}
	names, err := g.names()
	if err != nil {
		return nil, err
	}

	var b bytes.Buffer
	b.WriteString(`// Code generated by querent/app/page/tsgen (make generate); DO NOT EDIT.
//
// The Go types that cross the boundary between app/page's services and
// the page, as encoding/json writes them: the services' parameters and
// results (Services), the events' payloads (EventMap), and the string unions
// of Go's constants. types.ts re-exports them with what Go cannot say.

import type { Value } from './types';
`)
	for _, u := range unions {
		vals, err := docs.consts(u)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "\n/** %s */\nexport type %s =", u.doc, u.name)
		for _, v := range vals {
			b.WriteString("\n")
			writeDoc(&b, "  ", v.doc)
			fmt.Fprintf(&b, "  | %s", tsString(v.value))
		}
		b.WriteString(";\n")
	}
	order := make([]int, len(g.decls))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(i, j int) bool { return names[order[i]] < names[order[j]] })
	for _, i := range order {
		d := g.decls[i]
		b.WriteString("\n")
		doc := typeDoc(d.t, docs.typeDoc(d.t))
		if !d.out && d.t.Kind() == reflect.Struct {
			doc += "\n\nOnly the page sends it: a field left out is Go's zero value."
		}
		writeDoc(&b, "", doc)
		if strings.HasPrefix(d.body, "{") {
			fmt.Fprintf(&b, "export interface %s %s\n", names[i], d.body)
		} else {
			fmt.Fprintf(&b, "export type %s = %s;\n", names[i], d.body)
		}
	}
	b.WriteString("\n/** The bound services (page.Services) and their methods: what each takes and returns (the error aside). */\nexport interface Services {\n")
	b.WriteString(svc)
	b.WriteString("}\n\n/** The events the page can receive, by name, with their payloads (page.PageEvents). */\nexport interface EventMap {\n")
	b.WriteString(events)
	b.WriteString("}\n")
	return g.resolve(b.Bytes(), names), nil
}

// gen walks the types; a named type is written as a reference token (its
// index between NUL bytes) until every name is known.
type gen struct {
	docs   *docs
	decls  []*decl
	index  map[reflect.Type]int
	queue  []queued
	queued map[queued]bool
	errs   []error
	// out: the types being walked reach the page (a result, an event);
	// otherwise the page sends them (a parameter).
	out bool
}

type queued struct {
	t   reflect.Type
	out bool
}

type decl struct {
	t    reflect.Type
	body string
	// out: the type reaches the page somewhere.
	out bool
}

func (g *gen) fail(format string, args ...any) string {
	g.errs = append(g.errs, fmt.Errorf(format, args...))
	return "never"
}

// ref returns the token of a named type, queueing it the first time.
func (g *gen) ref(t reflect.Type) string {
	i, ok := g.index[t]
	if !ok {
		i = len(g.decls)
		g.index[t] = i
		g.decls = append(g.decls, &decl{t: t})
	}
	if q := (queued{t, g.out}); !g.queued[q] {
		g.queued[q] = true
		g.queue = append(g.queue, q)
	}
	return "\x00" + strconv.Itoa(i) + "\x00"
}

// names gives each declaration its TypeScript name: the Go name (or its
// rename); where two packages' types share one, desktop's keeps it and the
// others take their package's name in front (engine.Answer →
// EngineAnswer).
func (g *gen) names() ([]string, error) {
	names := make([]string, len(g.decls))
	byName := map[string][]int{}
	for i, d := range g.decls {
		names[i] = d.t.Name()
		if r, ok := renames[d.t]; ok {
			names[i] = r
		}
		byName[names[i]] = append(byName[names[i]], i)
	}
	for _, u := range unions {
		byName[u.name] = append(byName[u.name], -1)
	}
	for name, is := range byName {
		if len(is) < 2 {
			continue
		}
		sort.Slice(is, func(a, b int) bool { return rank(g.decls, is[a]) < rank(g.decls, is[b]) })
		for _, i := range is[1:] {
			if i < 0 {
				return nil, fmt.Errorf("the Go type %s is named like the union %s: add it to renames", g.decls[is[0]].t, name)
			}
			names[i] = exported(pkgName(g.decls[i].t)) + names[i]
		}
	}
	seen := map[string]reflect.Type{}
	for i, n := range names {
		if t, ok := seen[n]; ok {
			return nil, fmt.Errorf("%s and %s are both %s on the page: add one to renames", t, g.decls[i].t, n)
		}
		seen[n] = g.decls[i].t
	}
	return names, nil
}

// rank orders the types that want the same name: unions, then desktop's,
// then engine's, then by package path.
func rank(decls []*decl, i int) string {
	if i < 0 {
		return "0"
	}
	switch p := decls[i].t.PkgPath(); p {
	case services.PkgPath():
		return "1"
	case reflect.TypeFor[engine.Answer]().PkgPath():
		return "2"
	default:
		return "3" + p
	}
}

func (g *gen) resolve(b []byte, names []string) []byte {
	parts := bytes.Split(b, []byte{0})
	var out bytes.Buffer
	for i, p := range parts {
		if i%2 == 1 {
			n, _ := strconv.Atoi(string(p))
			out.WriteString(names[n])
			continue
		}
		out.Write(p)
	}
	return out.Bytes()
}

// services writes the body of the Services interface.
func (g *gen) services() string {
	var b strings.Builder
	for i := 0; i < services.NumField(); i++ {
		f := services.Field(i)
		if !f.IsExported() {
			continue
		}
		st := f.Type
		if st.Kind() != reflect.Pointer || st.Elem().Kind() != reflect.Struct {
			g.fail("page.Services.%s is not a pointer to a service struct", f.Name)
			continue
		}
		writeDoc(&b, "  ", g.docs.typeDoc(st.Elem()))
		fmt.Fprintf(&b, "  %s: {\n", f.Name)
		for m := 0; m < st.NumMethod(); m++ {
			meth := st.Method(m)
			ft := meth.Type
			where := st.Elem().String() + "." + meth.Name
			params := g.docs.params[st.Elem().String()+"."+meth.Name]
			var args []string
			g.out = false
			for a := 1; a < ft.NumIn(); a++ {
				name := "arg" + strconv.Itoa(a-1)
				if a-1 < len(params) && params[a-1] != "_" {
					name = params[a-1]
				}
				args = append(args, name+": "+g.ts(ft.In(a), where))
			}
			if ft.IsVariadic() {
				g.fail("%s is variadic", where)
			}
			var results []string
			g.out = true
			for r := 0; r < ft.NumOut(); r++ {
				if r == ft.NumOut()-1 && ft.Out(r) == errorType {
					break
				}
				results = append(results, g.ts(ft.Out(r), where))
			}
			result := "void"
			switch len(results) {
			case 0:
			case 1:
				result = results[0]
			default:
				g.fail("%s returns more than one value besides its error", where)
			}
			writeDoc(&b, "    ", g.docs.methods[st.Elem().String()+"."+meth.Name])
			fmt.Fprintf(&b, "    %s(%s): %s;\n", meth.Name, strings.Join(args, ", "), result)
		}
		b.WriteString("  };\n")
	}
	return b.String()
}

// events writes the body of the EventMap interface.
func (g *gen) events() string {
	var b strings.Builder
	seen := map[string]bool{}
	for _, e := range page.PageEvents {
		if seen[e.Name] {
			g.fail("the event %s is twice in page.PageEvents", e.Name)
		}
		seen[e.Name] = true
		writeDoc(&b, "  ", e.Doc)
		// The table names the type of what is sent: never nil.
		ts := strings.TrimSuffix(g.ts(e.Payload, "the event "+e.Name), " | null")
		fmt.Fprintf(&b, "  %s: %s;\n", tsString(e.Name), ts)
	}
	return b.String()
}

// declare returns the body of a named type's declaration.
func (g *gen) declare(t reflect.Type) string {
	if o, ok := overrides[t]; ok && !o.asStruct {
		for _, u := range o.uses {
			g.ref(u)
		}
		return o.ts
	}
	if t.Kind() != reflect.Struct {
		return g.ts(t, t.String())
	}
	return g.object(t)
}

// ts returns the TypeScript type of the JSON of a value of type t.
func (g *gen) ts(t reflect.Type, where string) string {
	if o, ok := overrides[t]; ok {
		if o.asStruct || t.Name() != "" {
			return g.ref(t)
		}
		return o.ts
	}
	if t == timeType {
		return "string"
	}
	if t.Implements(marshalerType) || reflect.PointerTo(t).Implements(marshalerType) ||
		t.Implements(textMarshaler) || reflect.PointerTo(t).Implements(textMarshaler) {
		if t.Kind() != reflect.Pointer {
			return g.fail("%s (in %s) has its own JSON encoding: add it to tsgen's overrides with the shape its MarshalJSON or MarshalText writes", t, where)
		}
	}
	switch t.Kind() {
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		return "number" // time.Duration too: nanoseconds
	case reflect.String:
		return "string"
	case reflect.Interface:
		if t.NumMethod() > 0 {
			return g.fail("%s (in %s) is an interface: the page cannot know its JSON", t, where)
		}
		return "Value"
	case reflect.Pointer:
		return g.ts(t.Elem(), where) + " | null"
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 && !t.Elem().Implements(marshalerType) {
			return "string" // base64
		}
		return list(g.elem(t.Elem(), where)) + " | null"
	case reflect.Array:
		return list(g.elem(t.Elem(), where))
	case reflect.Map:
		k := t.Key()
		switch {
		case k.Kind() == reflect.String, k.Implements(textMarshaler):
		case k.Kind() >= reflect.Int && k.Kind() <= reflect.Uintptr:
		default:
			return g.fail("%s (in %s) has keys JSON cannot write", t, where)
		}
		return "Record<string, " + g.elem(t.Elem(), where) + "> | null"
	case reflect.Struct:
		if t.Name() == "" {
			return g.object(t)
		}
		return g.ref(t)
	}
	return g.fail("%s (in %s) cannot be sent as JSON: tag it `json:\"-\"`", t, where)
}

// elem is the type of a list's or a map's element: a pointer there is
// never nil in what the services send (no code puts a nil one in a list),
// so it is T rather than T | null.
func (g *gen) elem(t reflect.Type, where string) string {
	if t.Kind() == reflect.Pointer {
		return g.ts(t.Elem(), where)
	}
	return g.ts(t, where)
}

// list is T[], with parentheses around a union.
func list(elem string) string {
	if strings.ContainsAny(elem, "|&") {
		return "(" + elem + ")[]"
	}
	return elem + "[]"
}

// field is one JSON field of a struct, after encoding/json's rules.
type field struct {
	name      string
	index     []int
	typ       reflect.Type
	tagged    bool
	omitEmpty bool
	quoted    bool
	// owner is the struct that declares it, goName its Go name.
	owner  reflect.Type
	goName string
}

// jsonFields returns the fields encoding/json writes for struct t, in its
// order: embedded structs without a JSON name are flattened, and of fields
// with the same name the shallowest wins, a tagged one among equals, none
// when still tied.
func jsonFields(t reflect.Type) []field {
	type walk struct {
		typ   reflect.Type
		index []int
	}
	var fields []field
	var current []walk
	next := []walk{{typ: t}}
	visited := map[reflect.Type]bool{}
	for len(next) > 0 {
		current, next = next, nil
		nextCount := map[reflect.Type]int{}
		for _, w := range current {
			if visited[w.typ] {
				continue
			}
			visited[w.typ] = true
			for i := 0; i < w.typ.NumField(); i++ {
				sf := w.typ.Field(i)
				if sf.Anonymous {
					ft := sf.Type
					if ft.Kind() == reflect.Pointer {
						ft = ft.Elem()
					}
					if !sf.IsExported() && ft.Kind() != reflect.Struct {
						continue
					}
				} else if !sf.IsExported() {
					continue
				}
				tag := sf.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, opts, _ := strings.Cut(tag, ",")
				index := append(append([]int{}, w.index...), i)
				ft := sf.Type
				if ft.Name() == "" && ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if name != "" || !sf.Anonymous || ft.Kind() != reflect.Struct {
					f := field{name: name, index: index, typ: sf.Type, tagged: name != "", owner: w.typ, goName: sf.Name}
					if f.name == "" {
						f.name = sf.Name
					}
					for _, o := range strings.Split(opts, ",") {
						switch o {
						case "omitempty", "omitzero":
							f.omitEmpty = true
						case "string":
							switch ft.Kind() {
							case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
								reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64, reflect.String:
								f.quoted = true
							}
						}
					}
					fields = append(fields, f)
					continue
				}
				nextCount[ft]++
				if nextCount[ft] == 1 {
					next = append(next, walk{typ: ft, index: index})
				}
			}
		}
	}
	sort.SliceStable(fields, func(i, j int) bool {
		if fields[i].name != fields[j].name {
			return fields[i].name < fields[j].name
		}
		if len(fields[i].index) != len(fields[j].index) {
			return len(fields[i].index) < len(fields[j].index)
		}
		return fields[i].tagged && !fields[j].tagged
	})
	var out []field
	for i := 0; i < len(fields); {
		j := i + 1
		for j < len(fields) && fields[j].name == fields[i].name {
			j++
		}
		group := fields[i:j]
		i = j
		if len(group) > 1 && len(group[0].index) == len(group[1].index) && group[0].tagged == group[1].tagged {
			continue // tied: encoding/json writes neither
		}
		out = append(out, group[0])
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].index, out[j].index
		for k := 0; k < len(a) && k < len(b); k++ {
			if a[k] != b[k] {
				return a[k] < b[k]
			}
		}
		return len(a) < len(b)
	})
	return out
}

// object returns the body of a struct's interface.
func (g *gen) object(t reflect.Type) string {
	fields := jsonFields(t)
	var present map[string]json.RawMessage
	if o, ok := overrides[t]; ok && o.asStruct {
		b, err := json.Marshal(reflect.Zero(t).Interface())
		if err == nil {
			err = json.Unmarshal(b, &present)
		}
		if err != nil {
			return g.fail("%s: %v", t, err)
		}
		var want, got []string
		for _, f := range fields {
			want = append(want, f.name)
		}
		for k := range present {
			got = append(got, k)
		}
		sort.Strings(want)
		sort.Strings(got)
		if strings.Join(want, ",") != strings.Join(got, ",") {
			return g.fail("%s's MarshalJSON writes the keys %v, its tags say %v: fix its override in tsgen", t, got, want)
		}
	}
	if len(fields) == 0 {
		return "Record<string, never>"
	}
	var b strings.Builder
	b.WriteString("{\n")
	for _, f := range fields {
		key := f.owner.String() + "." + f.goName
		var ts string
		if o, ok := fieldOverrides[key]; ok {
			for _, u := range o.uses {
				g.ref(u)
			}
			ts = o.ts
		} else {
			ts = g.ts(f.typ, key)
			if f.quoted {
				ts = "string"
			}
			k := f.typ.Kind()
			_, never := nonNull[key]
			if raw, ok := present[f.name]; ok && string(raw) != "null" {
				never = true
			}
			if never && (k == reflect.Slice || k == reflect.Map) {
				ts = strings.TrimSuffix(ts, " | null")
			}
		}
		g.docs.load(f.owner.PkgPath())
		writeDoc(&b, "  ", g.docs.fields[key])
		opt := ""
		if f.omitEmpty || t.Name() != "" && !g.decls[g.index[t]].out {
			opt = "?"
			// omitempty leaves out a nil pointer, a nil or empty list:
			// present, it is never null.
			if k := f.typ.Kind(); k == reflect.Pointer || k == reflect.Slice || k == reflect.Map {
				ts = strings.TrimSuffix(ts, " | null")
			}
		}
		fmt.Fprintf(&b, "  %s%s: %s;\n", tsKey(f.name), opt, ts)
	}
	b.WriteString("}")
	return b.String()
}

// typeDoc starts a type's doc with its Go name, package included.
func typeDoc(t reflect.Type, doc string) string {
	q := t.String()
	if rest, ok := strings.CutPrefix(doc, t.Name()+" "); ok {
		return q + " " + rest
	}
	if doc == "" {
		return q + "."
	}
	return q + ": " + doc
}

// writeDoc writes a TSDoc comment (nothing for an empty doc).
func writeDoc(b interface{ WriteString(string) (int, error) }, indent, doc string) {
	doc = strings.TrimSpace(strings.ReplaceAll(doc, "*/", "*\u2215"))
	if doc == "" {
		return
	}
	lines := strings.Split(doc, "\n")
	if len(lines) == 1 {
		b.WriteString(indent + "/** " + doc + " */\n")
		return
	}
	b.WriteString(indent + "/**\n")
	for _, l := range lines {
		b.WriteString(strings.TrimRight(indent+" * "+l, " ") + "\n")
	}
	b.WriteString(indent + " */\n")
}

// tsString is a TypeScript string literal, single-quoted.
func tsString(s string) string {
	q := strconv.Quote(s)
	q = strings.ReplaceAll(q[1:len(q)-1], `\"`, `"`)
	return "'" + strings.ReplaceAll(q, "'", `\'`) + "'"
}

// tsKey is a property name, quoted when it is not an identifier.
func tsKey(s string) string {
	for i, r := range s {
		if !(r == '_' || r == '$' || unicode.IsLetter(r) || (i > 0 && unicode.IsDigit(r))) {
			return tsString(s)
		}
	}
	if s == "" {
		return "''"
	}
	return s
}

func pkgName(t reflect.Type) string {
	name, _, _ := strings.Cut(t.String(), ".")
	return strings.TrimLeft(name, "*[]")
}

func exported(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// Root is the module's root: the first folder upward from the working
// directory that holds go.mod.
func Root() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", errors.New("tsgen: no go.mod above the working directory")
		}
		dir = up
	}
}

// docs are the doc comments of the module's packages, read from source.
type docs struct {
	root, module string
	loaded       map[string]bool
	types        map[string]string   // "engine.Answer"
	fields       map[string]string   // "engine.Answer.Question"
	methods      map[string]string   // "page.Datasets.Open"
	params       map[string][]string // "page.Datasets.Open": ["path"]
	files        map[string][]*ast.File
}

func newDocs(root string) (*docs, error) {
	b, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return nil, err
	}
	var module string
	for _, l := range strings.Split(string(b), "\n") {
		if m, ok := strings.CutPrefix(strings.TrimSpace(l), "module "); ok {
			module = strings.Trim(strings.TrimSpace(m), `"`)
			break
		}
	}
	if module == "" {
		return nil, errors.New("tsgen: go.mod names no module")
	}
	d := &docs{root: root, module: module, loaded: map[string]bool{}, types: map[string]string{}, fields: map[string]string{},
		methods: map[string]string{}, params: map[string][]string{}, files: map[string][]*ast.File{}}
	return d, nil
}

// load reads the doc comments of the package at path (once; nothing for a
// package outside the module).
func (d *docs) load(path string) {
	if d.loaded[path] {
		return
	}
	d.loaded[path] = true
	rel, ok := strings.CutPrefix(path, d.module)
	if !ok || (rel != "" && rel[0] != '/') {
		return
	}
	dir := filepath.Join(d.root, filepath.FromSlash(strings.TrimPrefix(rel, "/")))
	names, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	sort.Strings(names)
	fset := token.NewFileSet()
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			continue
		}
		d.files[path] = append(d.files[path], f)
		pkg := f.Name.Name
		for _, decl := range f.Decls {
			switch decl := decl.(type) {
			case *ast.GenDecl:
				if decl.Tok != token.TYPE {
					continue
				}
				for _, spec := range decl.Specs {
					ts := spec.(*ast.TypeSpec)
					doc := ts.Doc
					if doc == nil && len(decl.Specs) == 1 {
						doc = decl.Doc
					}
					tn := pkg + "." + ts.Name.Name
					d.types[tn] = text(doc)
					st, ok := ts.Type.(*ast.StructType)
					if !ok {
						continue
					}
					for _, fl := range st.Fields.List {
						doc := text(fl.Doc)
						if doc == "" {
							doc = text(fl.Comment)
						}
						for _, n := range fl.Names {
							d.fields[tn+"."+n.Name] = doc
						}
						if len(fl.Names) == 0 { // embedded
							d.fields[tn+"."+embeddedName(fl.Type)] = doc
						}
					}
				}
			case *ast.FuncDecl:
				if decl.Recv == nil || len(decl.Recv.List) != 1 {
					continue
				}
				recv := decl.Recv.List[0].Type
				if s, ok := recv.(*ast.StarExpr); ok {
					recv = s.X
				}
				id, ok := recv.(*ast.Ident)
				if !ok {
					continue
				}
				key := pkg + "." + id.Name + "." + decl.Name.Name
				d.methods[key] = text(decl.Doc)
				var ps []string
				for _, p := range decl.Type.Params.List {
					if len(p.Names) == 0 {
						ps = append(ps, "_")
					}
					for _, n := range p.Names {
						ps = append(ps, n.Name)
					}
				}
				d.params[key] = ps
			}
		}
	}
}

func embeddedName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return embeddedName(e.X)
	case *ast.SelectorExpr:
		return e.Sel.Name
	case *ast.Ident:
		return e.Name
	}
	return ""
}

func (d *docs) typeDoc(t reflect.Type) string {
	d.load(t.PkgPath())
	return d.types[t.String()]
}

func text(c *ast.CommentGroup) string {
	if c == nil {
		return ""
	}
	return strings.TrimSpace(c.Text())
}

type constant struct{ value, doc string }

// consts returns a union's values, with their line comments.
func (d *docs) consts(u union) ([]constant, error) {
	var out []constant
	if u.values != nil {
		for _, v := range u.values {
			out = append(out, constant{value: v})
		}
		return out, nil
	}
	d.load(u.pkg)
	for _, f := range d.files[u.pkg] {
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if !strings.HasPrefix(n.Name, u.prefix) || !n.IsExported() || i >= len(vs.Values) {
						continue
					}
					lit, ok := vs.Values[i].(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						continue
					}
					v, err := strconv.Unquote(lit.Value)
					if err != nil {
						return nil, err
					}
					out = append(out, constant{value: v, doc: text(vs.Comment)})
				}
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("tsgen: no string constants %s… in %s for %s", u.prefix, u.pkg, u.name)
	}
	return out, nil
}
