package engine

import (
	"context"
	"errors"
	"fmt"

	"querent/engine/words"
)

// Error codes: the "type" of the command-line/JSON contract. Each face
// translates them in one place (exit codes, HTTP statuses, UI banners).
const (
	CodeRefused        = "refused"              // the guard's policy refused the statement
	CodeSyntax         = "syntax"               // SQLite could not compile the statement
	CodeUnknownTable   = "unknown_table"        // a table or view that does not exist
	CodeUnknownColumn  = "unknown_column"       // a column that does not exist
	CodeTimeout        = "timeout"              // the statement ran past its deadline
	CodeTooBig         = "too_big"              // a value or the result exceeded a limit
	CodeClarification  = "clarification_needed" // the question needs the user's answer first
	CodeUnanswerable   = "unanswerable"         // the schema cannot answer the question
	CodeModelError     = "model_error"          // the model's output was unusable
	CodeImport         = "import"               // an import failed
	CodeExport         = "export"               // an export failed
	CodeUsage          = "usage"                // bad flags or arguments
	CodeDatabase       = "database"             // the database cannot be opened or read
	CodeLLMUnavailable = "llm_unavailable"      // Ollama is unreachable or too slow
	CodeModelMissing   = "model_missing"        // the model is not installed
	CodeInternal       = "internal"             // a bug: report it
	CodeCancelled      = "cancelled"            // the user cancelled
)

// Error is the one error type the engine returns to its faces. Message says
// what went wrong in words a user (or a model repairing its SQL) can act on;
// Hint says what to do next. Err keeps the underlying cause for logs and
// errors.Is/As; it is never shown as the message.
//
// Message and Hint are always the command line's English. Where the engine
// said them in parts (package words: Say, SayHint), MessageWords and
// HintWords hold the sentences, so that each face says them its own way and
// in its language (a flag as the page's setting or MCP's argument) instead
// of rewriting the English; MessageSentence and HintSentence are what a face
// says.
type Error struct {
	Code    string
	Message string
	Hint    string
	// MessageWords and HintWords are Message and Hint in parts; zero when
	// the engine wrote plain text.
	MessageWords, HintWords words.Sentence
	// Query is the SQL the error is about, when there is one.
	Query string
	// Position is the 0-based byte offset in Query where the problem was
	// found, or -1 when unknown.
	Position int
	Err      error
}

// Error returns the message, with the hint when there is one.
func (e *Error) Error() string {
	if e.Hint != "" {
		return e.Message + " (" + e.Hint + ")"
	}
	return e.Message
}

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error with the given code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Position: -1}
}

// QueryErrorf is Errorf for an error about query, found at the byte
// offset pos (-1: unknown).
func QueryErrorf(code, query string, pos int, format string, args ...any) *Error {
	e := Errorf(code, format, args...)
	e.Query = query
	e.Position = pos
	return e
}

// Refused is the refusal of query, at pos, for reason: whatever the
// database, Querent only runs read-only queries.
func Refused(query string, pos int, reason string) *Error {
	return QueryErrorf(CodeRefused, query, pos, "%s: Querent only runs read-only queries", reason).WithHint(
		"write a single SELECT (or WITH … SELECT) that reads what you need; nothing can change the database")
}

// Say returns an *Error with the given code whose message is said in parts.
func Say(code string, message words.Sentence) *Error {
	return &Error{Code: code, Message: words.English(message), MessageWords: message, Position: -1}
}

// QuerySay is Say for an error about query, found at the byte offset pos
// (-1: unknown).
func QuerySay(code, query string, pos int, message words.Sentence) *Error {
	e := Say(code, message)
	e.Query = query
	e.Position = pos
	return e
}

// WithHint sets the hint and returns e, for chaining.
func (e *Error) WithHint(format string, args ...any) *Error {
	e.Hint = fmt.Sprintf(format, args...)
	e.HintWords = words.Sentence{}
	return e
}

// SayHint sets the hint, said in parts, and returns e, for chaining.
func (e *Error) SayHint(hint words.Sentence) *Error {
	e.Hint = words.English(hint)
	e.HintWords = hint
	return e
}

// MessageSentence is the message as a face says it: its parts, or the
// text as written when it has none (or when Message was changed since).
func (e *Error) MessageSentence() words.Sentence { return sentenceOf(e.Message, e.MessageWords) }

// HintSentence is the hint as a face says it: its parts, or the text as
// written when it has none (or when Hint was changed since).
func (e *Error) HintSentence() words.Sentence { return sentenceOf(e.Hint, e.HintWords) }

// sentenceOf is s when it still says text (a face that changed the text
// after the engine said it in parts keeps its change), else text as
// written.
func sentenceOf(text string, s words.Sentence) words.Sentence {
	if !s.IsZero() && words.English(s) == text {
		return s
	}
	if text == "" {
		return words.Sentence{}
	}
	return words.Plain(text)
}

// WithErr sets the underlying cause and returns e, for chaining.
func (e *Error) WithErr(err error) *Error {
	e.Err = err
	return e
}

// AsError returns err as an *Error: the one it wraps, a cancellation, or an
// internal error wrapping it. It returns nil for a nil err.
func AsError(err error) *Error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	if errors.Is(err, context.Canceled) {
		return &Error{Code: CodeCancelled, Message: "cancelled", Position: -1, Err: err}
	}
	if errors.Is(err, context.DeadlineExceeded) {
		e := &Error{Code: CodeTimeout, Message: "the operation ran past its deadline", Position: -1, Err: err}
		return e.SayHint(words.New("hint.deadline", words.Timeout))
	}
	return &Error{Code: CodeInternal, Message: err.Error(), Position: -1, Err: err,
		Hint: "this is a bug in Querent; please report it with the command that caused it"}
}

// ErrorCode returns the code of err ("" for nil).
func ErrorCode(err error) string {
	if e := AsError(err); e != nil {
		return e.Code
	}
	return ""
}

// ExitCode maps an error code to the command-line exit status of the
// contract: 0 success, 1 the query or question failed, 2 usage or
// environment, 130 cancelled.
func ExitCode(code string) int {
	switch code {
	case "":
		return 0
	case CodeCancelled:
		return 130
	case CodeUsage, CodeDatabase, CodeLLMUnavailable, CodeModelMissing, CodeInternal:
		return 2
	default:
		return 1
	}
}
