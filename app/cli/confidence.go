package cli

import (
	"fmt"
	"io"
	"strings"

	"querent/engine"
)

// writeConfidence says how sure the answer is, why, and the other results
// that readings of the question gave (engine.Confidence), after the rows.
func writeConfidence(w io.Writer, c *engine.Confidence) {
	if c == nil {
		return
	}
	agree := ""
	if c.Samples > 1 {
		agree = fmt.Sprintf(", %d of %d readings agree", c.Agreeing, c.Samples)
	}
	fmt.Fprintf(w, "\nConfidence: %s%s: %s\n", c.Level, agree, strings.Join(c.Reasons, "; "))
	for _, a := range c.Alternatives {
		readings := "1 reading"
		if a.Agreeing != 1 {
			readings = fmt.Sprintf("%d readings", a.Agreeing)
		}
		got := fmt.Sprintf("%d rows", a.RowCount)
		switch {
		case a.Error != nil:
			got = a.Error.Type
		case a.RowCount == 1:
			got = "1 row"
		}
		if a.SQL == "" {
			fmt.Fprintf(w, "  other result (%s): %s\n", readings, got)
			continue
		}
		fmt.Fprintf(w, "  other result (%s, %s): %s\n", readings, got, oneLine(a.SQL, 200))
	}
}
