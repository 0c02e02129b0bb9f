package tsgen

import (
	"reflect"

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
	// export.Export makes the report's list (MaskedColumns: []string{}).
	"export.Report.MaskedColumns": "Export",
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
