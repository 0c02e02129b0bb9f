package eval

// Prompt variants (issue 23 §4): querent eval --compare runs the same gold
// set once per variant and prints one table, so that the prompt's defaults
// are chosen by a figure, not a guess.

import (
	"context"
	"slices"
	"strings"

	"querent/engine"
	"querent/engine/schemactx"
	"querent/engine/words"
)

// Variant is one way of prompting the model. The zero Variant (with Schema
// FormDDL) is the plain eval's: the schema as DDL, no glossary, no
// verified examples, one reading per question (no vote).
type Variant struct {
	// Name is the variant as written in --compare ("mschema+glossary").
	Name string `json:"variant"`
	// Schema is the tables' form: schemactx.FormDDL or FormMSchema.
	Schema string `json:"schema"`
	// Glossary sends the glossary's entries the question uses.
	Glossary bool `json:"glossary"`
	// Examples quotes the analyst's verified answers to like questions
	// (never the item being asked: see examplesOnly).
	Examples bool `json:"examples"`
	// Vote draws other readings of a doubtful answer (ask.Options.NoVote
	// false).
	Vote bool `json:"vote"`
}

// The settings of a variant, as --compare names them, joined by +.
const (
	SettingDDL        = "ddl"         // the schema as DDL (the default)
	SettingMSchema    = "mschema"     // the schema in the M-Schema-like form
	SettingGlossary   = "glossary"    // the glossary on
	SettingNoGlossary = "no-glossary" // the glossary off (the default)
	SettingExamples   = "examples"    // verified examples on
	SettingNoExamples = "no-examples" // verified examples off (the default)
	SettingVote       = "vote"        // voting on
	SettingNoVote     = "no-vote"     // voting off (the default)
	// SettingAsk is what querent ask does: ddl+glossary+examples+vote; the
	// settings after it change it (ask+mschema, ask+no-vote).
	SettingAsk = "ask"
)

// Settings are the settings a variant is made of, for hints and docs.
var Settings = []string{SettingDDL, SettingMSchema, SettingGlossary, SettingNoGlossary, SettingExamples, SettingNoExamples,
	SettingVote, SettingNoVote, SettingAsk}

// MaxVariants is the most variants one --compare runs.
const MaxVariants = 8

// ParseVariants reads --compare's list: variants separated by commas, each
// settings joined by + ("ddl,mschema,mschema+glossary+examples,ask"). A
// setting not given keeps the plain eval's (ddl, no glossary, no
// examples, no vote), or querent ask's after "ask". An unknown setting,
// two settings that contradict each other (ddl+mschema) and two variants
// that are the same are usage errors whose hint lists the settings.
func ParseVariants(list string) ([]Variant, error) {
	var out []Variant
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		v, err := parseVariant(name)
		if err != nil {
			return nil, err
		}
		for _, w := range out {
			if w.same(v) {
				return nil, variantError("the variants %q and %q are the same", w.Name, v.Name)
			}
		}
		out = append(out, v)
	}
	switch {
	case len(out) == 0:
		return nil, variantError("--compare names no variant")
	case len(out) > MaxVariants:
		return nil, variantError("--compare names %d variants, at most %d run at once", len(out), MaxVariants)
	}
	return out, nil
}

// parseVariant reads one variant's settings.
func parseVariant(name string) (Variant, error) {
	v := Variant{Name: name, Schema: schemactx.FormDDL}
	set := map[string]string{} // dimension → the setting that set it
	for _, s := range strings.Split(name, "+") {
		s = strings.ToLower(strings.TrimSpace(s))
		dim := ""
		switch s {
		case SettingAsk:
			if len(set) > 0 {
				return v, variantError("in %q, %q comes first: the settings after it change it", name, SettingAsk)
			}
			v.Glossary, v.Examples, v.Vote = true, true, true
			continue
		case SettingDDL, SettingMSchema:
			dim, v.Schema = "schema", s
		case SettingGlossary, SettingNoGlossary:
			dim, v.Glossary = "glossary", s == SettingGlossary
		case SettingExamples, SettingNoExamples:
			dim, v.Examples = "examples", s == SettingExamples
		case SettingVote, SettingNoVote:
			dim, v.Vote = "vote", s == SettingVote
		default:
			if s == strings.ToLower(name) {
				return v, variantError("%q is not a variant", name)
			}
			return v, variantError("%q is not a setting of a variant (in %q)", s, name)
		}
		if prev, ok := set[dim]; ok {
			return v, variantError("in %q, %q and %q both set the %s", name, prev, s, dim)
		}
		set[dim] = s
	}
	return v, nil
}

func (v Variant) same(w Variant) bool {
	v.Name, w.Name = "", ""
	return v == w
}

// variantError is a usage error whose hint lists the settings.
func variantError(format string, args ...any) *engine.Error {
	return engine.Errorf(engine.CodeUsage, format, args...).SayHint(words.New("eval.variants",
		words.Compare, words.Values(words.Comma, Settings...), words.Value("ddl,mschema,mschema+glossary,ask")))
}

// examplesOnly is the history a variant with examples gives the ask loop:
// the analyst's verified answers, less those to the question being asked
// (the gold set's own answer would be quoted as an example, which is no
// test: with --gold verified, every item is one); nothing is recorded.
type examplesOnly struct {
	h engine.History
	// skip is the question being asked, folded (foldQuestion).
	skip string
}

var _ engine.History = (*examplesOnly)(nil)

func (e *examplesOnly) Record(context.Context, engine.HistoryEntry) error { return nil }

func (e *examplesOnly) List(context.Context, string, int) ([]engine.HistoryEntry, error) {
	return nil, nil
}

func (e *examplesOnly) Verified(ctx context.Context, id engine.DatabaseIdentity, limit int) ([]engine.HistoryEntry, error) {
	all, err := e.h.Verified(ctx, id, limit)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(all, func(x engine.HistoryEntry) bool { return foldQuestion(x.Question) == e.skip }), nil
}

// foldQuestion is a question without case or extra spaces.
func foldQuestion(q string) string { return strings.ToLower(strings.Join(strings.Fields(q), " ")) }
