package schemactx

// Schema context: what the model is shown of a database. A small local model
// writes better SQL from a short, relevant schema than from a long one, and
// its context window is small, so a large database is pruned to the tables a
// question needs (plus the tables that join them) within a token budget.

import (
	"context"

	"querent/engine"
)

// DefaultBudgetTokens is the default budget of the schema part of a
// prompt: about 8k tokens (~32k characters) however large the database.
const DefaultBudgetTokens = 8000

// EstimateTokens estimates the tokens s takes in a model's prompt: its length
// in bytes divided by 4, rounded up. It is an estimate, not a tokenizer's
// count: English text and SQL run close to 4 bytes a token, so budgets built
// on it should keep a margin; accented and non-Latin text takes more bytes a
// character, which errs on the safe side.
func EstimateTokens(s string) int {
	return (len(s) + 3) / 4
}

// Reranker scores docs by their similarity to query, one score per doc,
// higher meaning closer (EmbeddingReranker returns cosine similarities).
type Reranker func(ctx context.Context, query string, docs []string) ([]float64, error)

// Context is the part of a prompt that describes the database.
type Context struct {
	// Tables are the tables shown, in a stable, join-friendly order:
	// referenced tables before the tables that reference them; ties in the
	// schema's order when nothing was pruned (so that the prompt does not
	// change from one question to the next and a model server can reuse its
	// cache) and in rank order when pruned.
	Tables []*engine.Table
	// Text is the tables rendered (RenderTable), joined by blank lines.
	Text string
	// Tokens is EstimateTokens(Text).
	Tokens int
	// FullTokens is the estimate for all the user's tables rendered.
	FullTokens int
	// Pruned is true when some of the user's tables were left out.
	Pruned bool
	// Ranking lists every user table, most relevant first, with its score
	// ("Track 7.31"), for debugging and tests.
	Ranking []string
	// RerankErr says why the reranker's scores were not used; nil when they
	// were, or when there was no reranker or nothing was pruned.
	RerankErr error
}
