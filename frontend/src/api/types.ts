// The Go side's JSON. Every type of the boundary — the services' parameters
// and results (Services), the events' payloads (EventMap), the error types,
// chart kinds and outcomes — is generated from the Go types into
// types.gen.ts (`make generate`; a Go test fails when it is stale). Here is
// only what Go cannot say.

export type * from './types.gen';
import type { EventMap, Suggestion } from './types.gen';

/** One cell as SQLite stored it (engine.Value, a Go `any`): numbers as
 * numbers, text as stored, blobs as base64 text, NULL as null. ±Infinity
 * arrive as the strings "Infinity"/"-Infinity" (JSON has no infinities). */
export type Value = number | string | boolean | null;

/** The charts the page draws: every suggestion but a table. */
export type ChartKind = Exclude<Suggestion, 'table'>;

export type EventName = keyof EventMap;
