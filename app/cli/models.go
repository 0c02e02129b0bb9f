package cli

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"querent/engine"
	"querent/engine/ask"
)

// modelList is what querent ask --list-models prints with --format json.
type modelList struct {
	// Models are the installed chat and embedding models, described: the
	// context window, the capabilities, the parameter size, the
	// quantization, the size on disk, and whether the model fits this
	// machine's memory (null when that is unknown).
	Models []listedModel `json:"models"`
	// MemoryBytes is this machine's memory (0 when unknown).
	MemoryBytes int64 `json:"memory_bytes"`
	// Default is the model a question uses without --model ("" when no
	// chat model is installed).
	Default string `json:"default"`
}

// listedModel is one model of the list.
type listedModel struct {
	engine.ModelInfo
	FitsMemory *bool `json:"fits_memory"`
}

// listModels lists the installed models with what Querent knows of each
// (engine.DescribeModel: Ollama's /api/show, once per model).
func (c *CLI) listModels(ctx context.Context, s *stdio, host string, timeout time.Duration, format string) int {
	srv, err := ask.Connect(ctx, ask.Connector(c.Model), host, timeout)
	if err != nil {
		return c.fail(s, "ask", format, "", err)
	}
	out := modelList{Models: []listedModel{}, MemoryBytes: engine.TotalMemory()}
	out.Default, _ = srv.Pick("")
	for _, m := range srv.Installed {
		lm := listedModel{ModelInfo: m}
		if info, err := engine.DescribeModel(ctx, srv.Model, m.Name); err == nil && info != nil {
			lm.ContextLength, lm.Capabilities = info.ContextLength, info.Capabilities
			lm.Family = firstNonEmpty(lm.Family, info.Family)
			lm.ParameterSize = firstNonEmpty(lm.ParameterSize, info.ParameterSize)
			lm.Quantization = firstNonEmpty(lm.Quantization, info.Quantization)
		}
		if lm.Capabilities == nil {
			lm.Capabilities = []string{}
		}
		if fits, known := engine.ModelFits(m.SizeBytes, out.MemoryBytes); known {
			lm.FitsMemory = &fits
		}
		out.Models = append(out.Models, lm)
	}
	if format == "json" {
		if err := writeJSON(s.out, out); err != nil {
			fmt.Fprintf(s.err, "querent ask: cannot write the output: %v\n", err)
			return 2
		}
		return 0
	}
	if len(out.Models) == 0 {
		fmt.Fprintln(s.out, "No model is installed; download one with: ollama pull "+ask.DefaultPullModel)
		return 0
	}
	tw := tabwriter.NewWriter(s.out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "MODEL\tWINDOW\tCAPABILITIES\tPARAMETERS\tQUANTIZATION\tSIZE\tFITS MEMORY")
	for _, m := range out.Models {
		window := "?"
		if m.ContextLength > 0 {
			window = engine.GroupThousands(int64(m.ContextLength))
		}
		fits := "?"
		if m.FitsMemory != nil {
			fits = map[bool]string{true: "yes", false: "no"}[*m.FitsMemory]
		}
		name := m.Name
		if name == out.Default {
			name += " (default)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", name, window, orDash(strings.Join(m.Capabilities, ", ")), orDash(m.ParameterSize),
			orDash(m.Quantization), engine.FormatSize(m.SizeBytes), fits)
	}
	tw.Flush()
	if out.MemoryBytes > 0 {
		fmt.Fprintf(s.out, "\nThis machine has %s of memory; a model fits when its size and a fifth more leave 2 GB free.\n", engine.FormatSize(out.MemoryBytes))
	}
	return 0
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// thinkingPrinter writes a model's thinking to standard error as it
// streams, after a "thinking:" line; end closes the last line.
func thinkingPrinter(s *stdio) (print func(string), end func()) {
	started := false
	print = func(piece string) {
		if !started {
			started = true
			fmt.Fprintln(s.err, "thinking:")
		}
		fmt.Fprint(s.err, piece)
	}
	end = func() {
		if started {
			fmt.Fprintln(s.err)
		}
	}
	return print, end
}
