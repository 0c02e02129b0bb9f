// Package eval measures how well a model answers questions about a
// database: gold sets (TOML files of questions with their gold SQL, or the
// reason the schema cannot answer them), the execution-accuracy scorer (the
// Spider test-suite match on result sets, never on SQL text), the runner that
// asks every question through the real ask loop (ask.Asker) or scores
// ready-made predictions or old records, and the reports (JSON, Markdown and
// the JSONL records that a later run can regrade).
//
// It depends on the engine's ports only: the database and the model come in
// through engine.Database and engine.Model, so the command line, the desktop
// app and the tests wire their own.
package eval
