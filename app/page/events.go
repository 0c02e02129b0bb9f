package page

import (
	"reflect"

	"querent/engine"
	"querent/engine/ask"
	"querent/engine/imports"
)

// The events the page listens to. The services send the first eight; the
// two windows send the others: app/web and main.go the window's title,
// main.go alone the dropped files and the startup error.
const (
	EventDatasetChanged = "dataset:changed"
	EventAskProgress    = "ask:progress"
	EventAskRows        = "ask:rows"
	EventImportProgress = "import:progress"
	EventExportProgress = "export:progress"
	EventModelPull      = "model:pull"
	EventEvalProgress   = "eval:progress"
	EventEvalDraft      = "eval:draft"
	EventWindowTitle    = "window:title"
	EventFileDropped    = "file:dropped"
	EventStartupError   = "app:error"
)

// PageEvent is one event the page can receive and its payload's type.
type PageEvent struct {
	Name    string
	Payload reflect.Type
	// Doc says when it is sent.
	Doc string
}

// PageEvents lists every event the page can receive, in one table: the
// page's EventMap is generated from it (app/page/tsgen), and a test
// checks that every event sent in app/page, app/web and main.go is here.
var PageEvents = []PageEvent{
	{EventAskProgress, reflect.TypeFor[ask.Progress](), "A step of the ask loop (Ask.Question, Results.Run); while explaining, the explanation written so far."},
	{EventAskRows, reflect.TypeFor[*engine.Answer](), "The answer of Ask.Question as soon as its rows are there, before the explanation is written; again once the votes of a doubtful answer are counted (its confidence)."},
	{EventImportProgress, reflect.TypeFor[imports.Progress](), "How far Datasets.Import has come (and Datasets.PreviewImport, while it reads the files)."},
	{EventExportProgress, reflect.TypeFor[ExportProgress](), "How far Export.Run has come, at most ten a second."},
	{EventModelPull, reflect.TypeFor[engine.PullProgress](), "How far Ask.PullModel's download has come."},
	{EventEvalProgress, reflect.TypeFor[EvalProgress](), "A question of Evaluate.Run asked (scored false) or scored."},
	{EventEvalDraft, reflect.TypeFor[DraftProgress](), "Questions Evaluate.Draft has kept so far, of those wanted."},
	{EventDatasetChanged, reflect.TypeFor[DatasetInfo](), "Another database was opened (by the page, an import or the desktop's command line)."},
	{EventWindowTitle, reflect.TypeFor[string](), "The window's title (the browser mode sets the page's)."},
	{EventFileDropped, reflect.TypeFor[[]string](), "The absolute paths of files dropped on the desktop window; the page opens or imports them."},
	{EventStartupError, reflect.TypeFor[engine.ErrorDoc](), "The desktop app could not open the database named on its command line (sent once, when the page has loaded)."},
}

// ExportProgress is the event "export:progress".
type ExportProgress struct {
	// Rows is the number of rows read so far.
	Rows int64 `json:"rows"`
	// Bytes is the size of the values read so far, an estimate of the
	// data's volume.
	Bytes int64 `json:"bytes"`
}

// DraftProgress is the event "eval:draft".
type DraftProgress struct {
	// Kept is the number of drafted questions kept so far, of Want.
	Kept int `json:"kept"`
	Want int `json:"want"`
}
