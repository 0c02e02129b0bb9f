package engine

import (
	"context"
	"errors"
	"fmt"
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
type Error struct {
	Code    string
	Message string
	Hint    string
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

// WithHint sets the hint and returns e, for chaining.
func (e *Error) WithHint(format string, args ...any) *Error {
	e.Hint = fmt.Sprintf(format, args...)
	return e
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
		return &Error{Code: CodeTimeout, Message: "the operation ran past its deadline", Position: -1, Err: err,
			Hint: "allow more time (--timeout) or ask for less"}
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
