import { beforeEach, describe, expect, it } from 'vitest';
import * as api from '../api';
import type { Answer, BoardPin } from '../api';
import type { Transport } from '../api/transport';
import { board } from './board.svelte';
import { Card } from './app.svelte';

function pin(id: string, sql: string, over: Partial<BoardPin> = {}): BoardPin {
  const snap = { columns: ['n'], rows: [[1]], row_count: 1, at: '2026-12-01T10:00:00Z' };
  return { id, question: 'q ' + id, sql, chart: 'bar', note: '', pinned_at: snap.at, pinned: snap, ...over };
}

// A transport that answers the board's calls from a list the test holds.
function transport(pins: BoardPin[]) {
  const calls: string[] = [];
  const t: Transport = {
    kind: 'browser',
    async call<T>(service: string, method: string, args: unknown[]): Promise<T> {
      calls.push(`${service}.${method}`);
      const r = (v: unknown) => v as T;
      switch (`${service}.${method}`) {
        case 'Board.List':
          return r({ database: 'x.db', pins: null }); // Go's nil list
        case 'Board.Pin': {
          const req = args[0] as { sql: string; question: string };
          return r(pin('new', req.sql, { question: req.question }));
        }
        case 'Board.SetNote':
          return r({ ...pins[0], note: args[1] });
        case 'Board.RerunAll':
          return r({ database: 'x.db', pins });
        case 'Board.Answer':
          return r({ columns: [{ name: 'n', type: 'INTEGER' }], results: [{ n: 7 }], row_count: 1 } as Partial<Answer>);
      }
      return r(undefined);
    },
    on: () => () => {},
    fileURL: () => '',
  };
  return { t, calls };
}

function card(id: number, sql: string): Card {
  const c = new Card(id);
  c.sql = sql;
  c.question = 'Question ' + id;
  c.heading = c.question;
  c.doc = { query: sql, columns: [], visualization_suggestion: 'bar' } as unknown as Answer;
  return c;
}

describe('the board state', () => {
  beforeEach(() => board.reset());

  it('loads an empty board from a nil list, pins a card and knows its SQL', async () => {
    const f = transport([]);
    await api.init(f.t);
    await board.load('x');
    expect(board.pins).toEqual([]);
    await board.pin(card(1, 'SELECT 1'));
    expect(board.pins.map((p) => p.question)).toEqual(['Question 1']);
    expect(board.pinned(' SELECT 1 ')).toBe(true);
    expect(board.pinned('SELECT 2')).toBe(false);
  });

  it('re-runs all and saves a note', async () => {
    const pins = [pin('a', 'SELECT 1'), pin('b', 'SELECT 2')];
    const f = transport(pins);
    await api.init(f.t);
    await board.rerunAll();
    expect(board.pins.map((p) => p.id)).toEqual(['a', 'b']);
    await board.setNote('a', 'look again');
    expect(board.pins[0].note).toBe('look again');
    expect(f.calls).toContain('Board.RerunAll');
  });

  it('compares two answers: a third replaces the older, one chosen again is unchosen', async () => {
    const f = transport([]);
    await api.init(f.t);
    board.pickCard(card(1, 'SELECT 1'));
    board.pickCard(card(2, 'SELECT 2'));
    expect(board.picked.map((s) => s.key)).toEqual(['card:1', 'card:2']);
    await board.pickPin(pin('p', 'SELECT 3'));
    expect(board.picked.map((s) => s.key)).toEqual(['card:2', 'pin:p']);
    expect(board.picked[1].rows).toEqual([[7]]);
    board.pickCard(card(2, 'SELECT 2'));
    expect(board.picked.map((s) => s.key)).toEqual(['pin:p']);
    board.closeCompare();
    expect(board.picked).toEqual([]);
  });

  it('forgets the board and the comparison when another database opens', async () => {
    const f = transport([]);
    await api.init(f.t);
    await board.load('one');
    board.pickCard(card(1, 'SELECT 1'));
    board.open = true;
    await board.load('two');
    expect(board.picked).toEqual([]);
    expect(board.open).toBe(false);
  });
});
