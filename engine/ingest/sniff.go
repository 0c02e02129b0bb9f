package ingest

import (
	"bytes"

	"querent/engine"
)

// delimiters are the candidates of the sniffer, in order of preference.
var delimiters = []byte{',', ';', '\t', '|'}

// normDelimiter maps an Options.Delimiter value to its byte: 0 for "auto",
// ok false when the value is unknown (engine.ParseDelimiter).
func normDelimiter(s string) (byte, bool) {
	d, ok := engine.ParseDelimiter(s)
	return byte(d), ok
}

// delimiterName is how messages name a delimiter.
func delimiterName(d byte) string { return engine.DelimiterName(rune(d)) }

// sniffDelimiter chooses the delimiter from decoded text at the start of a
// file (whole: the text is the whole file). Each candidate parses the sample
// with the full quote-aware parser, so quoted delimiters and line breaks
// never count. The winner is the candidate that splits the first record
// into two fields or more and gives the most records that many fields (ties
// go to more fields, then to the order , ; tab |). When no candidate splits
// the first record, the most consistent split of the other records wins;
// when none splits anything consistently, the file has one column.
func sniffDelimiter(text []byte, whole bool) byte {
	type score struct {
		d        byte
		head     int     // fields of the first record
		headFrac float64 // records with as many fields as the first
		mode     int     // the most common number of fields
		modeFrac float64
		single   float64 // records with one field
	}
	var scores []score
	for _, d := range delimiters {
		sc := score{d: d, head: 1, headFrac: 1, mode: 1, modeFrac: 1, single: 1}
		if bytes.IndexByte(text, d) >= 0 {
			if counts := sampleFieldCounts(text, whole, d); len(counts) > 0 {
				freq := map[int]int{}
				for _, c := range counts {
					freq[c]++
				}
				best := 0
				for c, n := range freq {
					if n > best || n == best && c > sc.mode {
						sc.mode, best = c, n
					}
				}
				n := float64(len(counts))
				sc.head = counts[0]
				sc.headFrac = float64(freq[counts[0]]) / n
				sc.modeFrac = float64(best) / n
				sc.single = float64(freq[1]) / n
			}
		}
		scores = append(scores, sc)
	}
	better := func(fa, fb float64, ma, mb int) bool {
		return fa > fb+1e-9 || fa > fb-1e-9 && ma > mb
	}
	var win *score
	for i := range scores {
		s := &scores[i]
		if s.head >= 2 && (win == nil || better(s.headFrac, win.headFrac, s.head, win.head)) {
			win = s
		}
	}
	if win != nil {
		return win.d
	}
	for i := range scores {
		s := &scores[i]
		if s.mode >= 2 && s.modeFrac >= 0.5 && (win == nil || better(s.modeFrac, win.modeFrac, s.mode, win.mode)) {
			win = s
		}
	}
	if win != nil {
		return win.d
	}
	for i := range scores {
		s := &scores[i]
		if win == nil || s.single > win.single+1e-9 {
			win = s
		}
	}
	return win.d
}

// sampleFieldCounts parses text with delimiter d and returns the number of
// fields of each record (blank lines skipped). When the text is only the
// start of the file, the last record, perhaps cut short, is left out.
func sampleFieldCounts(text []byte, whole bool, d byte) []int {
	p := newCSVParser(bytes.NewReader(text), d)
	var counts []int
	for len(counts) < 20000 {
		fields, err := p.next()
		if err != nil {
			break // the end, or a quote the sample cuts
		}
		if p.recBlank {
			continue
		}
		if !whole && p.recEnd >= int64(len(text)) {
			break
		}
		counts = append(counts, len(fields))
	}
	return counts
}
