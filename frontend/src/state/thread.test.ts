import { describe, expect, it } from 'vitest';
import type { Answer } from '../api';
import { SAVED_MAX_CHARS, SAVED_ROWS, capRows, decode, encode, threadKey, type SavedCard } from './thread';

function card(id: number, rows: number, width = 10): SavedCard {
  const results = Array.from({ length: rows }, (_, i) => ({ n: i, s: 'x'.repeat(width) }));
  const doc = { question: `q${id}`, query: 'SELECT n, s FROM t', columns: [{ name: 'n', type: 'INTEGER' }, { name: 's', type: 'TEXT' }], results, row_count: rows, truncated: false } as unknown as Answer;
  return { id, source: 'ask', heading: `q${id}`, question: `q${id}`, taken: 'question', sql: 'SELECT n, s FROM t', table: '', tableRows: -1, parent: null, collapsed: false, fromEditor: false, chart: null, tab: 'chart', doc };
}

describe('the stored thread', () => {
  it('keeps each answer’s first rows, saying more follow', () => {
    const t = decode(encode([card(1, SAVED_ROWS + 50), card(2, 3)], []))!;
    expect(t.cards[0].doc.results).toHaveLength(SAVED_ROWS);
    expect(t.cards[0].doc.truncated).toBe(true);
    expect(t.cards[1].doc.results).toHaveLength(3);
    expect(t.cards[1].doc.truncated).toBe(false);
    expect(t.cards[1].tab).toBe('chart');
    expect(capRows(card(3, 5).doc, 5).truncated).toBe(false);
  });

  it('stays within its size: older cards give up rows first, then go', () => {
    const big = Array.from({ length: 6 }, (_, i) => card(i + 1, SAVED_ROWS, 2000));
    const s = encode(big, []);
    expect(s.length).toBeLessThanOrEqual(SAVED_MAX_CHARS);
    const t = decode(s)!;
    expect(t.cards.at(-1)!.id).toBe(6); // the newest card is kept
    expect(t.cards.at(-1)!.doc.results.length).toBeGreaterThan(0);
  });

  it('reads nothing from a broken or older value', () => {
    expect(decode(null)).toBeNull();
    expect(decode('{')).toBeNull();
    expect(decode(JSON.stringify({ v: 2, cards: [], turns: [] }))).toBeNull();
    expect(decode(JSON.stringify({ v: 1, cards: [{ id: 'x' }], turns: [] }))?.cards).toEqual([]);
  });

  it('names each database’s thread apart', () => {
    expect(threadKey({ path: '/a.db', name: 'a.db', server: '' })).not.toBe(threadKey({ path: '/b.db', name: 'b.db', server: '' }));
    expect(threadKey({ path: '', name: 'shop', server: 'db:5432' })).not.toBe(threadKey({ path: '', name: 'shop', server: 'other:5432' }));
  });
});
