import { describe, expect, it } from 'vitest';
import type { EvalProgress, EvalResult, ItemScore, ModelReport } from '../api/types';
import { best, outcomeLabel, pct, position, progressLine, rows, stopped } from './evaluation';

const ev = (over: Partial<EvalProgress>): EvalProgress => ({
  model: 'qwen2.5-coder:7b',
  item_id: 'a',
  question: 'How many tracks?',
  try: 1,
  k: 1,
  done: 0,
  total: 138,
  scored: false,
  match: false,
  outcome: '',
  difficulty: 'easy',
  ...over,
});

const score = (id: string, match: boolean, outcome: string, t = 1): ItemScore => ({
  id,
  match,
  outcome,
  reason: match ? '' : `reason ${id} ${t}`,
  latency_s: 0.5,
  attempts: 1,
  repairs: 0,
  tokens: 10,
  try: t,
  difficulty: 'easy',
  relaxed: [],
});

const report = (model: string, acc: number, items: ItemScore[], over: Partial<ModelReport> = {}): ModelReport => ({
  items,
  execution_accuracy: acc,
  abstention: null,
  false_refusals: 0,
  by_difficulty: {},
  pass_at_k: null,
  pass_hat_k: null,
  latency_p50_s: 1,
  latency_p95_s: 2,
  tokens_total: 0,
  lenient: false,
  model,
  gold: 'g',
  database: 'd',
  source: 'model',
  k: 1,
  matches: 0,
  questions: items.length,
  outcomes: {},
  unanswerable: 0,
  repairs: 0,
  repaired_items: 0,
  relaxed_matches: 0,
  warnings: [],
  errors: [],
  ...over,
});

describe('evaluation in words', () => {
  it('writes scores as percentages', () => {
    expect(pct(1)).toBe('100%');
    expect(pct(0)).toBe('0%');
    expect(pct(0.8696)).toBe('87%');
    expect(pct(0.8571)).toBe('85.7%');
    expect(pct(0.125)).toBe('12.5%');
    expect(pct(null)).toBe('—');
  });

  it('says which question of which model is asked, from done of total', () => {
    // 69 questions × 2 models: the 12th question of the first model is asked after 11 are done.
    expect(progressLine(position(ev({ done: 11 }), 2))).toBe('qwen2.5-coder:7b — question 12 of 69: How many tracks?');
    // Once scored, done counts it: still question 12.
    expect(position(ev({ done: 12, scored: true }), 2).n).toBe(12);
    // The second model starts again at question 1.
    expect(position(ev({ model: 'llama3.1:8b', done: 69 }), 2)).toMatchObject({ model: 'llama3.1:8b', n: 1, items: 69 });
    expect(position(ev({ done: 138, scored: true }), 2).n).toBe(69);
    // k tries: 10 questions × 3 tries × 1 model; the 2nd try's 4th question.
    const p = position(ev({ done: 13, total: 30, k: 3, try: 2 }), 1);
    expect(p).toMatchObject({ n: 4, items: 10, try: 2, k: 3 });
    expect(progressLine(p)).toBe('qwen2.5-coder:7b — question 4 of 10, try 2 of 3: How many tracks?');
  });

  it('names the best model: accuracy, then fewer false refusals, then speed', () => {
    expect(best([report('a', 0.5, []), report('b', 0.9, [])])).toBe('b');
    expect(best([report('a', 0.9, [], { false_refusals: 2 }), report('b', 0.9, [], { false_refusals: 1 })])).toBe('b');
    expect(best([report('a', 0.9, [], { latency_p50_s: 3 }), report('b', 0.9, [], { latency_p50_s: 1 })])).toBe('b');
    expect(best([report('a', 1, [])])).toBe('');
    expect(best([report('a', 0, []), report('b', 0, [])])).toBe('');
  });

  it('says outcomes plainly, declining an unanswerable question being right', () => {
    expect(outcomeLabel('match')).toBe('right');
    expect(outcomeLabel('match', true)).toBe('declined, rightly');
    expect(outcomeLabel('abstained')).toBe('declined (false refusal)');
    expect(outcomeLabel('wrong_result')).toBe('wrong result');
    expect(outcomeLabel('something_new')).toBe('something new');
  });

  it('builds a row per question with a cell per model', () => {
    const result: EvalResult = {
      gold: 'g',
      database: 'd',
      k: 2,
      lenient: false,
      elapsed_s: 1,
      items: [
        { id: 'a', question: 'A?', difficulty: 'easy', unanswerable: false, follows: '' },
        { id: 'b', question: 'B?', difficulty: 'hard', unanswerable: true, follows: '' },
        { id: 'c', question: 'C?', difficulty: 'easy', unanswerable: false, follows: '' },
      ],
      models: [
        report('good', 1, [score('a', true, 'match'), score('a', true, 'match', 2), score('b', true, 'match'), score('b', true, 'match', 2), score('c', true, 'match'), score('c', true, 'match', 2)]),
        report('bad', 0.3, [
          score('a', true, 'match'),
          score('a', false, 'wrong_result', 2),
          score('b', false, 'wrong_result'),
          score('b', false, 'wrong_result', 2),
          score('c', true, 'match'),
          score('c', true, 'match', 2),
        ]),
      ],
      report_dir: '',
      warnings: [],
      errors: [],
    };
    const r = rows(result);
    expect(r.map((x) => x.n)).toEqual([1, 2, 3]);
    expect(r[0].cells.map((c) => c.verdict)).toEqual(['all', 'some']);
    expect(r[0].cells[1]).toMatchObject({ matches: 1, label: 'wrong result', reason: 'Try 1: right\nTry 2: reason a 2' });
    expect(r[1].cells[0].label).toBe('declined, rightly');
    expect(r[1].cells[1].label).toBe('answered (should decline)');
    expect(r.map((x) => [x.missed, x.disagree])).toEqual([
      [true, true],
      [true, true],
      [false, false],
    ]);
    expect(stopped(result)).toBe(false);
    expect(stopped({ ...result, errors: [{ type: 'cancelled', message: 'cancelled', hint: '', query: '' }] })).toBe(true);
  });

  it('shows a question a model was never asked', () => {
    const result = {
      gold: 'g',
      database: 'd',
      k: 1,
      lenient: false,
      elapsed_s: 1,
      items: [{ id: 'a', question: 'A?', difficulty: 'easy', unanswerable: false, follows: '' }],
      models: [report('m', 0, [score('a', false, 'missing')])],
      report_dir: '',
      warnings: [],
      errors: [],
    };
    expect(rows(result)[0].cells[0]).toMatchObject({ verdict: 'missing', label: 'not asked' });
  });
});
