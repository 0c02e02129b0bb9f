package page

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"querent/engine"
	"querent/engine/ask"
	"querent/engine/eval"
)

// Evaluate measures the installed models on a gold set of questions about
// the open database (querent eval, in the app): which model answers this
// database, how well, how fast.
type Evaluate struct{ a *app }

// GoldSetInfo describes a gold set the page can run.
type GoldSetInfo struct {
	// Name is what Run takes: a built-in name or the file's path.
	Name   string `json:"name"`
	Title  string `json:"title"`
	Source string `json:"source"` // "built-in" or the file
	// Database is the database the set was written for.
	Database     string `json:"database"`
	Builtin      bool   `json:"builtin"`
	Items        int    `json:"items"`
	Answerable   int    `json:"answerable"`
	Unanswerable int    `json:"unanswerable"`
	FollowUps    int    `json:"follow_ups"`
	// Fits says whether the set was written for the open database (the
	// built-in chinook set fits the demo); a run checks the gold queries
	// anyway.
	Fits bool `json:"fits"`
}

// EvalRequest is a run from the page.
type EvalRequest struct {
	// Gold is a built-in name ("chinook") or a gold file's path.
	Gold string `json:"gold"`
	// Models are the models to compare (at least one).
	Models []string `json:"models"`
	// K asks each question K times (default 1; pass@k and pass^k).
	K       int  `json:"k"`
	Lenient bool `json:"lenient"`
}

// EvalProgress is the event "eval:progress": one question asked or scored.
type EvalProgress struct {
	Model      string `json:"model"`
	ItemID     string `json:"item_id"`
	Question   string `json:"question"`
	Try        int    `json:"try"`
	K          int    `json:"k"`
	Done       int    `json:"done"`
	Total      int    `json:"total"`
	Scored     bool   `json:"scored"`
	Match      bool   `json:"match"`
	Outcome    string `json:"outcome"`
	Difficulty string `json:"difficulty"`
}

// EvalItem is one question of the gold set, for the per-question table.
type EvalItem struct {
	ID           string `json:"id"`
	Question     string `json:"question"`
	Difficulty   string `json:"difficulty"`
	Unanswerable bool   `json:"unanswerable"`
	Follows      string `json:"follows"`
}

// EvalResult is a finished (or stopped) run: one report per model, the
// questions, and where the full report was written.
type EvalResult struct {
	Gold     string              `json:"gold"`
	Database string              `json:"database"`
	K        int                 `json:"k"`
	Lenient  bool                `json:"lenient"`
	ElapsedS float64             `json:"elapsed_s"`
	Models   []*eval.ModelReport `json:"models"`
	Items    []EvalItem          `json:"items"`
	// ReportDir holds report.md, report.json and records.jsonl ("" when
	// they could not be written: see Warnings).
	ReportDir string            `json:"report_dir"`
	Warnings  []string          `json:"warnings"`
	Errors    []engine.ErrorDoc `json:"errors"`
}

// DraftRequest drafts a gold set from the open database with a model.
type DraftRequest struct {
	Out   string `json:"out"`
	N     int    `json:"n"`
	Model string `json:"model"`
	Force bool   `json:"force"`
}

// DraftResult says what was drafted.
type DraftResult struct {
	Out     string       `json:"out"`
	Model   string       `json:"model"`
	Items   int          `json:"items"`
	Dropped int          `json:"dropped"`
	Gold    *GoldSetInfo `json:"gold"`
}

// GoldSets lists the built-in gold sets, saying which fit the open database.
func (e *Evaluate) GoldSets() ([]GoldSetInfo, error) {
	out := []GoldSetInfo{}
	for _, name := range eval.BuiltinNames() {
		g, err := eval.Builtin(name)
		if err != nil {
			return nil, engine.Errorf(engine.CodeInternal, "the built-in gold set %s: %v", name, err).WithErr(err)
		}
		out = append(out, e.info(g))
	}
	return out, nil
}

// LoadGold reads a gold set file (or a built-in name) and describes it; a
// file with mistakes gets all of them in the error.
func (e *Evaluate) LoadGold(nameOrPath string) (*GoldSetInfo, error) {
	nameOrPath = strings.TrimSpace(nameOrPath)
	if nameOrPath == "" {
		return nil, engine.Errorf(engine.CodeUsage, "no gold set").WithHint("choose a built-in set or a gold set file (.toml)")
	}
	g, err := eval.Load(nameOrPath)
	if err != nil {
		return nil, engine.Errorf(engine.CodeUsage, "%v", err).WithErr(err).WithHint("fix the gold set file (README.md, \"Evaluating models\", describes the format), or draft one from this database")
	}
	info := e.info(g)
	if !g.Builtin {
		info.Name = nameOrPath
	}
	return &info, nil
}

func (e *Evaluate) info(g *eval.GoldSet) GoldSetInfo {
	info := GoldSetInfo{Name: g.Name, Title: g.Name, Source: g.Source, Database: g.Database, Builtin: g.Builtin, Items: len(g.Items)}
	for _, it := range g.Items {
		if it.Answerable() {
			info.Answerable++
		} else {
			info.Unanswerable++
		}
		if it.Follows != "" {
			info.FollowUps++
		}
	}
	if g.Builtin {
		info.Title = "Built-in: " + g.Name + " (" + g.Database + ")"
	}
	e.a.mu.Lock()
	cur := e.a.info
	e.a.mu.Unlock()
	if cur != nil {
		switch {
		case g.Builtin:
			info.Fits = cur.Demo && strings.EqualFold(g.Name, "chinook")
		default:
			stem := strings.TrimSuffix(cur.Name, filepath.Ext(cur.Name))
			info.Fits = strings.EqualFold(g.Database, cur.Name) || strings.EqualFold(g.Database, stem) || strings.EqualFold(g.Database, cur.Path)
		}
	}
	return info
}

// ChooseGoldFile shows the open dialog for a gold set file.
func (e *Evaluate) ChooseGoldFile() (string, error) {
	dl := e.a.dialogsOrNil()
	if dl == nil {
		return "", ErrNoDialogs
	}
	return dl.OpenFile("Choose a gold set", []FileFilter{{Name: "Gold sets (TOML)", Pattern: "*.toml"}})
}

// ChooseDraftFile shows the save dialog for a drafted gold set.
func (e *Evaluate) ChooseDraftFile() (string, error) {
	dl := e.a.dialogsOrNil()
	if dl == nil {
		return "", ErrNoDialogs
	}
	return dl.SaveFile("Save the drafted gold set", e.defaultDraftName(), []FileFilter{{Name: "Gold sets (TOML)", Pattern: "*.toml"}})
}

// DefaultDraftName proposes where a drafted gold set goes.
func (e *Evaluate) DefaultDraftName() (string, error) { return e.defaultDraftName(), nil }

func (e *Evaluate) defaultDraftName() string {
	home, _ := os.UserHomeDir()
	return filepath.Join(home, safeName(e.a.stem("database"))+"-gold.toml")
}

var unsafeChars = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// safeName makes a name usable in a file name.
func safeName(s string) string {
	s = strings.Trim(unsafeChars.ReplaceAllString(s, "-"), "-.")
	if s == "" {
		return "database"
	}
	return s
}

// model connects to Ollama with the settings' host and lists the models.
func (e *Evaluate) model(ctx context.Context, timeout time.Duration) (*ask.Server, error) {
	set := e.a.settings()
	return ask.Connect(ctx, e.a.connector(set), set.OllamaHost, timeout)
}

// Run asks every question of the gold set of each model through the real
// ask loop, scores the answers and compares the models (progress events
// "eval:progress"; Cancel stops it and the report of what was done comes
// back). The full report is written to the data folder.
func (e *Evaluate) Run(req EvalRequest) (*EvalResult, error) {
	db, err := e.a.current()
	if err != nil {
		return nil, err
	}
	if len(req.Models) == 0 {
		return nil, engine.Errorf(engine.CodeUsage, "no model to evaluate").WithHint("tick at least one installed model")
	}
	if req.K < 1 {
		req.K = 1
	}
	if req.K > 10 {
		return nil, engine.Errorf(engine.CodeUsage, "at most 10 tries per question").WithHint("pass@k needs a few tries, not many: try 3 or 5")
	}
	gold, err := eval.Load(strings.TrimSpace(req.Gold))
	if err != nil {
		return nil, engine.Errorf(engine.CodeUsage, "%v", err).WithErr(err).WithHint("choose a built-in set or a gold set file (.toml)")
	}
	// A built-in set in the open database's dialect (the PostgreSQL Chinook
	// has its own translation).
	if gold, err = gold.ForDialect(db.Dialect()); err != nil {
		return nil, engine.Errorf(engine.CodeUsage, "%v", err).WithErr(err).WithHint("choose a gold set file (.toml) written for this database")
	}
	ctx, done := e.a.begin("eval")
	defer done()
	set := e.a.settings()
	srv, err := e.model(ctx, ask.RequestTimeout)
	if err != nil {
		return nil, err
	}
	opts := eval.Options{Gold: gold, DB: db, Model: srv.Model, K: req.K, Lenient: req.Lenient, Timeout: set.timeout(),
		EmbedModel: srv.Embedding(), Ask: ask.Options{Timeout: set.timeout(), NoExplain: true, NoVote: true}} // one reading per item
	for _, want := range req.Models {
		name, err := srv.Pick(want)
		if err != nil {
			return nil, err
		}
		opts.Models = append(opts.Models, name)
	}
	last := time.Time{}
	opts.Progress = func(p eval.Progress) {
		// Every scored question, and at most ten "asking" events a second.
		if p.Record == nil && time.Since(last) < 100*time.Millisecond {
			return
		}
		last = time.Now()
		ev := EvalProgress{Model: p.Model, Try: p.Try, K: p.K, Done: p.Done, Total: p.Total, Scored: p.Record != nil}
		if p.Item != nil {
			ev.ItemID, ev.Question, ev.Difficulty = p.Item.ID, p.Item.Question, p.Item.Difficulty
		}
		if p.Record != nil {
			ev.Match, ev.Outcome = p.Record.Match, p.Record.Outcome
		}
		e.a.emit(EventEvalProgress, ev)
	}
	rep, runErr := eval.Run(ctx, opts)
	if rep == nil {
		return nil, runErr
	}
	res := &EvalResult{Gold: gold.Name, Database: db.Name(), K: rep.K, Lenient: rep.Lenient, ElapsedS: engine.Seconds(rep.Elapsed),
		Models: rep.Models, Items: []EvalItem{}, Warnings: append([]string{}, rep.Warnings...), Errors: rep.Errors}
	pageDocs(res.Errors)
	if res.Errors == nil {
		res.Errors = []engine.ErrorDoc{}
	}
	if res.Models == nil {
		res.Models = []*eval.ModelReport{}
	}
	for _, it := range gold.Items {
		res.Items = append(res.Items, EvalItem{ID: it.ID, Question: it.Question, Difficulty: it.Difficulty, Unanswerable: !it.Answerable(), Follows: it.Follows})
	}
	if e.a.deps.DataDir != "" {
		dir := filepath.Join(e.a.deps.DataDir, "evals", fmt.Sprintf("%s-%s-%s", time.Now().Format("2006-01-02-150405"), safeName(gold.Name), safeName(db.Name())))
		if err := os.MkdirAll(dir, 0o700); err == nil {
			if err = rep.WriteDir(dir); err == nil {
				res.ReportDir = dir
			} else {
				res.Warnings = append(res.Warnings, fmt.Sprintf("the report could not be written to %s: %v", dir, err))
			}
		}
	}
	return res, nil
}

// Cancel stops a running evaluation or draft.
func (e *Evaluate) Cancel() error {
	e.a.cancel("eval")
	return nil
}

// Draft asks a model to draft a gold set about the open database and
// writes it to req.Out for the user to review (progress events
// "eval:draft" {kept, want}; Cancel stops it).
func (e *Evaluate) Draft(req DraftRequest) (*DraftResult, error) {
	db, err := e.a.current()
	if err != nil {
		return nil, err
	}
	req.Out = strings.TrimSpace(req.Out)
	if req.Out == "" {
		return nil, engine.Errorf(engine.CodeUsage, "no file to write").WithHint("choose where to save the drafted gold set (.toml)")
	}
	if req.N == 0 {
		req.N = 30
	}
	if req.N < 1 || req.N > 500 {
		return nil, engine.Errorf(engine.CodeUsage, "between 1 and 500 questions").WithHint("30 is a good start")
	}
	if !req.Force {
		if _, err := os.Stat(req.Out); err == nil {
			return nil, engine.Errorf(engine.CodeExport, "%s already exists", req.Out).WithHint("choose another file, or replace it")
		}
	}
	ctx, done := e.a.begin("eval")
	defer done()
	srv, err := e.model(ctx, ask.DraftTimeout)
	if err != nil {
		return nil, err
	}
	if req.Model == "" {
		req.Model = e.a.settings().Model
	}
	name, err := srv.Pick(req.Model)
	if err != nil {
		return nil, err
	}
	d, err := eval.Draft(ctx, eval.DraftOptions{DB: db, Model: srv.Model, ModelName: name, N: req.N,
		Progress: func(kept, want int) { e.a.emit(EventEvalDraft, DraftProgress{Kept: kept, Want: want}) }})
	if err != nil {
		return nil, err
	}
	if err := eval.WriteFile(req.Out, d.TOML(db.Name(), name, time.Now()), req.Force); err != nil {
		return nil, err
	}
	res := &DraftResult{Out: req.Out, Model: name, Items: len(d.Gold.Items), Dropped: len(d.Dropped)}
	if info, err := e.LoadGold(req.Out); err == nil {
		res.Gold = info
	}
	return res, nil
}
