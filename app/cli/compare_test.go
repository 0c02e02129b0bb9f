package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"querent/engine/eval"
	"querent/engine/eval/evaltest"
	"querent/engine/ollama/ollamatest"
)

// querent eval --compare (issue 23 §4): with a scripted model that answers
// right only from the M-Schema form, the table shows it, in text and JSON,
// and --out keeps each variant's report.
func TestEvalCompare(t *testing.T) {
	g, err := eval.Parse("gold.toml", []byte(evalGold))
	if err != nil {
		t.Fatal(err)
	}
	fake := ollamatest.New(t)
	gold := evaltest.GoldResponder(t, g, "qwen2.5-coder:7b")
	fake.Respond(func(req ollamatest.Request) ollamatest.Reply {
		if !strings.Contains(req.Messages[0].Content, "# Table: Track") {
			return ollamatest.Answer("SELECT 1 AS wrong", "from DDL")
		}
		return gold(req)
	})
	c := evalCLI(t, fake)
	path := writeGold(t, evalGold)
	out := filepath.Join(t.TempDir(), "cmp")
	code, stdout, errs := runWith(t, c, "", "eval", "--db", "demo.sqlite", "--gold", path, "--model", "qwen2.5-coder:7b",
		"--compare", "ddl,mschema", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, stdout, errs)
	}
	t.Logf("the table:\n%s", stdout)
	lines := strings.Split(stdout, "\n")
	if !strings.HasPrefix(stdout, "Gold set gold (5 questions) on Chinook demo (built in), strict match rule: 2 prompt variants.") || len(lines) < 6 {
		t.Fatalf("the table:\n%s", stdout)
	}
	for _, h := range []string{"variant", "accuracy", "abstention", "rounds/q", "tokens/q", "time s"} {
		if !strings.Contains(lines[2], h) {
			t.Errorf("the header lacks %q: %q", h, lines[2])
		}
	}
	if f := strings.Fields(lines[4]); len(f) < 5 || f[0] != "ddl" || f[2] != "0.0%" || f[3] != "0/5" || f[4] != "0.0%" {
		t.Errorf("ddl's row: %q", lines[4])
	}
	if f := strings.Fields(lines[5]); len(f) < 7 || f[0] != "mschema" || f[2] != "100.0%" || f[3] != "5/5" || f[4] != "100.0%" || f[6] != "1.00" {
		t.Errorf("mschema's row: %q", lines[5])
	}
	for _, f := range []string{"compare.json", "ddl/report.json", "mschema/records.jsonl", "mschema/report.md"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	code, stdout, errs = runWith(t, c, "", "eval", "--db", "demo.sqlite", "--gold", path, "--model", "qwen2.5-coder:7b",
		"--compare", "mschema+no-vote,ask", "--format", "json")
	if code != 0 {
		t.Fatalf("json: exit %d: %s %s", code, stdout, errs)
	}
	var doc struct {
		Items    int `json:"items"`
		Variants []struct {
			Variant           string   `json:"variant"`
			Schema            string   `json:"schema"`
			Glossary, Vote    bool     `json:"-"`
			ExecutionAccuracy float64  `json:"execution_accuracy"`
			Abstention        *float64 `json:"abstention"`
			RoundsTotal       int      `json:"rounds_total"`
			TokensTotal       int      `json:"tokens_total"`
			TimeS             float64  `json:"time_s"`
		} `json:"variants"`
		Errors []any `json:"errors"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("%v:\n%s", err, stdout)
	}
	if doc.Items != 5 || len(doc.Variants) != 2 || len(doc.Errors) != 0 {
		t.Fatalf("%s", stdout)
	}
	ms, ask := doc.Variants[0], doc.Variants[1]
	if ms.Variant != "mschema+no-vote" || ms.Schema != "mschema" || ms.ExecutionAccuracy != 1 || ask.Schema != "ddl" || ask.ExecutionAccuracy != 0 ||
		ms.RoundsTotal < 5 || ms.TokensTotal <= 0 || ms.TimeS <= 0 {
		t.Errorf("%s", stdout)
	}
}

// A variant that is not one is a usage error (exit 2) whose hint lists
// the settings; --compare needs --model.
func TestEvalCompareUsage(t *testing.T) {
	c := evalCLI(t, nil)
	path := writeGold(t, evalGold)
	for _, args := range [][]string{
		{"--model", "m", "--compare", "ddl,sql"},
		{"--model", "m", "--compare", "ddl+mschema"},
		{"--predictions", "p.jsonl", "--compare", "ddl,mschema"},
	} {
		code, stdout, errs := runWith(t, c, "", append([]string{"eval", "--db", "demo.sqlite", "--gold", path}, args...)...)
		if code != 2 {
			t.Errorf("%v: exit %d: %s %s", args, code, stdout, errs)
		}
		if args[0] == "--model" {
			for _, s := range eval.Settings {
				if !strings.Contains(errs, s) || !strings.Contains(errs, "--compare") {
					t.Errorf("%v: the hint does not list %s: %s", args, s, errs)
				}
			}
		}
	}
}
