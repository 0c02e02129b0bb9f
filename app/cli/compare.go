package cli

// querent eval --compare (issue 23 §4): the same gold set under prompt
// variants, one table.

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"

	"querent/engine"
	"querent/engine/eval"
	"querent/engine/files"
)

// runCompare runs opts's gold set under each of a's variants, with the
// glossary and the history of verified answers when a variant asks for
// them, and prints the table.
func (c *CLI) runCompare(ctx context.Context, a *evalArgs, opts eval.Options, s *stdio) int {
	var warnings []string
	var glossaryOn, examplesOn bool
	for _, v := range a.variants {
		glossaryOn, examplesOn = glossaryOn || v.Glossary, examplesOn || v.Examples
	}
	if glossaryOn {
		if g, closeG, gwarn := c.openGlossary(ctx); g != nil {
			defer closeG()
			opts.Glossary = g
		} else if gwarn != "" {
			warnings = append(warnings, gwarn)
		}
	}
	if examplesOn && c.History != nil {
		if h, closeH, herr := c.History(ctx); herr == nil {
			defer closeH()
			opts.Examples = h
		} else {
			warnings = append(warnings, "the history is not available, so no verified examples are quoted: "+engine.AsError(herr).Message)
		}
	}
	line := newProgress(s.err, a.format, "Ctrl-C stops")
	if line != nil {
		opts.Progress = func(pr eval.Progress) {
			if pr.Record == nil {
				pr.Model = pr.Variant + " · " + pr.Model
				line.set(evalStage(pr), false)
			}
		}
	}
	cmp, err := eval.RunCompare(ctx, opts, a.variants)
	line.clear()
	if cmp == nil {
		return a.fail(s, err)
	}
	cmp.Warnings = append(warnings, cmp.Warnings...)
	return a.compareReport(s, cmp, err)
}

// compareReport writes the comparison (the folder, then JSON or text) and
// returns the exit status; err is the run's own error.
func (a *evalArgs) compareReport(s *stdio, cmp *eval.Comparison, err error) int {
	code := engine.ExitCode(engine.ErrorCode(err))
	if a.out != "" {
		if werr := writeCompareDir(a.out, cmp); werr != nil {
			werr := engine.Errorf(engine.CodeExport, "%v", werr).WithErr(werr).WithHint("choose a folder you can write to with --out")
			if a.format == "text" {
				printError(s.err, "eval", werr)
			}
			cmp.Errors = append(cmp.Errors, engine.NewErrorDoc(werr))
			code = max(code, 1)
		}
	}
	if a.format == "json" {
		js, jerr := cmp.JSON()
		if jerr != nil {
			fmt.Fprintf(s.err, "querent eval: cannot write the comparison: %v\n", jerr)
			return 2
		}
		if _, werr := s.out.Write(append(js, '\n')); werr != nil {
			return 2
		}
		return code
	}
	printWarnings(s.err, cmp.Warnings)
	var b bytes.Buffer
	if werr := writeCompareText(&b, cmp); werr != nil {
		return 2
	}
	if a.out != "" && code == engine.ExitCode(engine.ErrorCode(err)) {
		fmt.Fprintf(&b, "\nWritten: %s and each variant's report in %s\n", filepath.Join(a.out, "compare.json"), filepath.Join(a.out, "VARIANT"))
	}
	if _, werr := s.out.Write(b.Bytes()); werr != nil {
		return 2
	}
	if err != nil {
		printError(s.err, "eval", err)
	}
	return code
}

// writeCompareDir writes compare.json into dir and each variant's report
// (records.jsonl, report.json, report.md) into dir/VARIANT.
func writeCompareDir(dir string, cmp *eval.Comparison) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("cannot create %s: %v", dir, err)
	}
	for i, rep := range cmp.Reports {
		if err := rep.WriteDir(filepath.Join(dir, cmp.Ran[i].Name)); err != nil {
			return err
		}
	}
	js, err := cmp.JSON()
	if err != nil {
		return err
	}
	path := filepath.Join(dir, "compare.json")
	if err := files.WriteFileAtomic(path, append(js, '\n'), 0o644); err != nil {
		return fmt.Errorf("cannot write %s: %v", path, err)
	}
	return nil
}

// writeCompareText writes the table for people: one row per variant (and
// model), then what to make of it.
func writeCompareText(b *bytes.Buffer, cmp *eval.Comparison) error {
	rule := "strict match rule"
	if cmp.Lenient {
		rule = "lenient match rule"
	}
	fmt.Fprintf(b, "Gold set %s (%d questions) on %s, %s", cmp.Gold, cmp.Items, cmp.Database, rule)
	if cmp.K > 1 {
		fmt.Fprintf(b, ", %d tries each", cmp.K)
	}
	fmt.Fprintf(b, ": %d prompt variants.\n\n", len(cmp.Rows))
	cols := []engine.Column{{Name: "variant"}, {Name: "model"}, {Name: "accuracy"}, {Name: "matches"}, {Name: "abstention"},
		{Name: "false refusals"}, {Name: "rounds/q"}, {Name: "tokens/q"}, {Name: "s/q"}, {Name: "time s"}}
	rows := make([][]engine.Value, 0, len(cmp.Rows))
	for _, r := range cmp.Rows {
		var abst engine.Value
		if r.Abstention != nil {
			abst = fmt.Sprintf("%.1f%%", *r.Abstention*100)
		}
		rows = append(rows, []engine.Value{r.Name, r.Model, fmt.Sprintf("%.1f%%", r.ExecutionAccuracy*100),
			fmt.Sprintf("%d/%d", r.Matches, r.Questions), abst, int64(r.FalseRefusals),
			fmt.Sprintf("%.2f", r.RoundsPerQuestion), fmt.Sprintf("%.0f", r.TokensPerQuestion),
			fmt.Sprintf("%.2f", r.TimePerQuestionS), fmt.Sprintf("%.1f", r.TimeS)})
	}
	return writeTable(b, cols, rows, tableOptions{maxWidth: 40})
}
