// Package worker runs a database's queries in a child process — the same
// executable started again — so that the limits on them hold whatever the
// SQL does. SQLite checks for interrupts between the steps of its virtual
// machine, and one step (one call of like(), instr() or replace() over a
// value of megabytes) can run for minutes; memory, too, grows inside one
// step. A process can always be killed: the parent (Client, an
// engine.Database) sends each call to a worker of the database's pool,
// watches the call's deadline, its cancellation and the worker's size
// against the call's share of Querent's memory ceiling (Budget), and kills
// the worker when any of them is passed. The parent opens the database
// file once and every worker reads that descriptor; the parent also
// identifies the file (identity.go).
//
// The worker side is serve, started by Main when the process was started
// as a worker (a hidden argument and pipes: start.go); the parent side is
// Open. They speak frames on the worker's standard input and output
// (protocol.go).
package worker
