package ask

// Prompt families (issue 24 §4): SQL specialists were trained on a prompt
// of their own, given on their model cards, and answer with the SQL in a
// fence or bare rather than in Querent's JSON object. For them, the SQL
// round sends their card's prompt (with the tables Querent chose, the
// stored values the question names, and the question), asks for free text,
// and takes the SQL from the reply (looseSQL); the repairs ask for the
// corrected SQL in a fence. The family is chosen from the model's name
// (Options.PromptFamily overrides it: --prompt-family). Their answers do
// not draw votes: the readings are read as Querent's JSON.

import (
	"strings"

	"querent/engine"
)

// The prompt families.
const (
	// FamilyQuerent is Querent's own prompt: rules, examples, a JSON
	// answer constrained by its schema.
	FamilyQuerent = "querent"
	// FamilyOmniSQL is OmniSQL's prompt ("Task Overview: … enclose the
	// generated SQL query in a code block"), which Arctic-Text2SQL-R1
	// was trained on too.
	FamilyOmniSQL = "omnisql"
	// FamilySQLCoder is Defog's sqlcoder prompt ("### Task … [SQL]").
	FamilySQLCoder = "sqlcoder"
)

// Families are the prompt families, for flags and their errors.
var Families = []string{FamilyQuerent, FamilyOmniSQL, FamilySQLCoder}

// FamilyFor is the prompt family of a model, from its name: OmniSQL and
// Arctic-Text2SQL take OmniSQL's, sqlcoder its own, any other Querent's.
func FamilyFor(model string) string {
	n := strings.ToLower(model)
	switch {
	case strings.Contains(n, "omnisql"), strings.Contains(n, "arctic-text2sql"), strings.Contains(n, "arctic_text2sql"):
		return FamilyOmniSQL
	case strings.Contains(n, "sqlcoder"):
		return FamilySQLCoder
	}
	return FamilyQuerent
}

// CheckFamily refuses a family that is none of Families ("" is fine: the
// model's own).
func CheckFamily(family string) error {
	if family == "" {
		return nil
	}
	for _, f := range Families {
		if f == family {
			return nil
		}
	}
	return engine.Errorf(engine.CodeUsage, "unknown prompt family %q", family).WithHint(
		"use one of %s, or leave it out to choose from the model's name", strings.Join(Families, ", "))
}

// family is the question's prompt family.
func (a *Asker) family(opts Options) string {
	if opts.PromptFamily != "" {
		return opts.PromptFamily
	}
	return FamilyFor(a.ModelName)
}

// familyPrompt is a specialist's one message for the SQL round: its card's
// prompt with the tables, the value hints and the question.
func (a *Asker) familyPrompt(family string, b built, question string) []engine.Message {
	data := map[string]any{"Dialect": a.DB.Dialect(), "Schema": b.schemaText, "Question": question, "Hints": b.hints}
	return []engine.Message{{Role: "user", Content: renderPrompt(family+".tmpl", data)}}
}
