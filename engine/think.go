package engine

import "strings"

// ThinkFilter takes a <think>…</think> block out of a streamed answer:
// older builds of thinking models (deepseek-r1 before Ollama parsed its
// thinking) write their thinking into the content, in such a block, before
// the answer. Feed it the content's pieces in order; each call returns the
// part of the piece that is answer and the part that is thinking. Only a
// block at the start of the content (after white space) is thinking: a
// "<think>" inside the answer is the answer's. The zero value is ready.
type ThinkFilter struct {
	head    strings.Builder // what came before the decision, held back
	decided bool            // whether the start was read
	inside  bool            // inside the block
	tail    string          // a held-back end of the block that may be "</think>" cut in two
	after   bool            // the block ended and no answer came yet: white space is dropped
}

const (
	thinkOpen  = "<think>"
	thinkClose = "</think>"
)

// Write reads the next piece of content.
func (f *ThinkFilter) Write(piece string) (answer, thinking string) {
	if !f.decided {
		f.head.WriteString(piece)
		h := strings.TrimLeft(f.head.String(), " \t\r\n")
		switch {
		case strings.HasPrefix(h, thinkOpen):
			f.decided, f.inside = true, true
			piece = h[len(thinkOpen):]
		case len(h) < len(thinkOpen) && strings.HasPrefix(thinkOpen, h):
			return "", "" // could still be the start of "<think>"
		default:
			f.decided = true
			return f.head.String(), ""
		}
	}
	if !f.inside {
		if f.after {
			piece = strings.TrimLeft(piece, " \t\r\n")
			f.after = piece == ""
		}
		return piece, ""
	}
	s := f.tail + piece
	f.tail = ""
	if i := strings.Index(s, thinkClose); i >= 0 {
		f.inside = false
		rest := strings.TrimLeft(s[i+len(thinkClose):], " \t\r\n")
		f.after = rest == ""
		return rest, s[:i]
	}
	// Hold back an end that may be the start of "</think>".
	for n := min(len(thinkClose)-1, len(s)); n > 0; n-- {
		if strings.HasPrefix(thinkClose, s[len(s)-n:]) {
			f.tail = s[len(s)-n:]
			return "", s[:len(s)-n]
		}
	}
	return "", s
}

// Flush returns what is still held back once the content has ended: a
// start too short to decide on is answer; an unclosed block's tail is
// thinking.
func (f *ThinkFilter) Flush() (answer, thinking string) {
	if !f.decided {
		f.decided = true
		return f.head.String(), ""
	}
	t := f.tail
	f.tail = ""
	return "", t
}

// EstimateThinkingTokens estimates the tokens of thinking text when the
// server does not count them apart: a token for every four bytes, rounded
// up (the schema's estimate, engine/schemactx).
func EstimateThinkingTokens(thinking string) int { return (len(thinking) + 3) / 4 }
