import { describe, expect, it } from 'vitest';
import { filterSchema, fkTarget } from './schema';
import { looksLikeSQL } from './sqltext';
import { compactClauses, formatSQL } from './sqlformat';
import { stageLabel, stepIndex } from './progress';
import { fieldOfError, validateSettings } from './settings';
import { numericColumns, toRows } from './rows';
import type { Table } from '../api/types';

const table = (name: string, columns: string[], extra: Partial<Table> = {}): Table => ({
  name,
  kind: 'table',
  row_count: 1,
  row_count_estimated: false,
  internal: false,
  columns: columns.map((c) => ({ name: c, type: 'TEXT', affinity: 'TEXT', nullable: true, default: null, pk: 0, original_name: null })),
  primary_key: [],
  foreign_keys: [],
  indexes: [],
  samples: [],
  distinct_values: {},
  ...extra,
});

describe('schema search', () => {
  const tables = [
    table('Album', ['AlbumId', 'Title', 'ArtistId']),
    table('Track', ['TrackId', 'AlbumId', 'Name']),
    table('Customer', ['CustomerId', 'Café']),
  ];
  it('matches table names and column names, case- and accent-insensitively', () => {
    const m = filterSchema(tables, 'album');
    expect(m.map((x) => x.table.name)).toEqual(['Album', 'Track']);
    expect(m[0].nameMatch).toBe(true);
    expect(m[1].nameMatch).toBe(false);
    expect(m[1].columns.map((c) => c.name)).toEqual(['AlbumId']);
    expect(filterSchema(tables, 'cafe').map((x) => x.table.name)).toEqual(['Customer']);
    expect(filterSchema(tables, '  ')).toHaveLength(3);
  });
  it('reads foreign keys', () => {
    const t = table('Album', ['ArtistId'], { foreign_keys: [{ column: 'ArtistId', references: 'Artist(ArtistId)' }] });
    expect(fkTarget(t, 'ArtistId')).toEqual({ table: 'Artist', column: 'ArtistId' });
    expect(fkTarget(t, 'Title')).toBeNull();
  });
});

describe('SQL or question', () => {
  it('runs SQL as SQL', () => {
    expect(looksLikeSQL('SELECT * FROM Track')).toBe(true);
    expect(looksLikeSQL('  select 1')).toBe(true);
    expect(looksLikeSQL('WITH RECURSIVE r(x) AS (SELECT 1) SELECT x FROM r')).toBe(true);
    expect(looksLikeSQL('-- top\nSELECT 1')).toBe(true);
  });
  it('asks questions', () => {
    expect(looksLikeSQL('Which artist has the most albums?')).toBe(false);
    expect(looksLikeSQL('select the best customers')).toBe(true); // a known ambiguity: "select " starts SQL
    expect(looksLikeSQL('with the most sales, which country?')).toBe(false);
  });
});

describe('SQL layout', () => {
  it('joins one-line clause bodies', () => {
    expect(compactClauses('SELECT\n  *\nFROM\n  "Album"\nLIMIT\n  200')).toBe('SELECT *\nFROM "Album"\nLIMIT 200');
    expect(compactClauses('SELECT\n  a,\n  b\nFROM\n  t')).toBe('SELECT\n  a,\n  b\nFROM t');
  });
  it('formats the answer SQL readably', () => {
    const out = formatSQL(
      'SELECT ar.Name AS artist, count(*) AS albums FROM Artist ar JOIN Album al USING (ArtistId) GROUP BY ar.ArtistId ORDER BY albums DESC LIMIT 10',
    );
    expect(out).toContain('LIMIT 10');
    expect(out).toContain('GROUP BY ar.ArtistId');
    expect(out.split('\n').length).toBeLessThan(10);
  });
  it('leaves what it cannot parse alone', () => {
    expect(formatSQL('')).toBe('');
  });
});

describe('progress', () => {
  it('says where the ask loop is', () => {
    expect(stageLabel({ stage: 'writing SQL', attempt: 1, attempts: 4, tokens: 48 })).toBe('Writing SQL… · 48 tokens');
    expect(stageLabel({ stage: 'repairing', attempt: 3, attempts: 4, tokens: 0 })).toBe('Repairing the SQL (2 of 3)…');
    expect(stageLabel({ stage: 'thinking', attempt: 1, attempts: 4, tokens: 120, text: 'Let me see' })).toBe('The model is thinking… · 120 tokens');
    expect(stepIndex('thinking')).toBe(1);
    expect(stageLabel({ stage: 'checking values', attempt: 1, attempts: 4, tokens: 0 })).toBe('Checking the values…');
    expect(stepIndex('checking')).toBe(2);
  });
});

describe('settings', () => {
  const ok = { ollama_host: '', llm_url: '', api_key_set: false, model: '', max_rows: 1000, timeout_s: 30, theme: 'system' as const, skip_explanation: false, skip_votes: false, require_readonly_role: false, allow_superuser: false, language: '', thinking_models: []  };
  it('accepts good settings and names bad fields', () => {
    expect(validateSettings(ok)).toEqual({});
    expect(Object.keys(validateSettings({ ...ok, max_rows: 0, timeout_s: 4000 }))).toEqual(['max_rows', 'timeout_s']);
    expect(validateSettings({ ...ok, max_rows: 1.5 }).max_rows).toBeTruthy();
    // Go's ceilings (engine.MaxTimeout, engine.MaxRowsInMemory).
    expect(validateSettings({ ...ok, timeout_s: 600, max_rows: 1_000_000 })).toEqual({});
    expect(Object.keys(validateSettings({ ...ok, timeout_s: 601, max_rows: 1_000_001 }))).toEqual(['max_rows', 'timeout_s']);
  });
  it('checks the OpenAI-compatible server address', () => {
    expect(validateSettings({ ...ok, llm_url: 'http://127.0.0.1:1234/v1' })).toEqual({});
    expect(validateSettings({ ...ok, llm_url: 'http://gpu box:8000/v1' }).llm_url).toBeTruthy();
    expect(fieldOfError('invalid OpenAI-compatible server URL: bad port "0" (want 1-65535)')).toBe('llm_url');
  });
  it("places Go's message at its field", () => {
    expect(fieldOfError('the row cap must be between 1 and 1,000,000')).toBe('max_rows');
    expect(fieldOfError('the timeout must be between 1 second and 10 minutes')).toBe('timeout_s');
    expect(fieldOfError('the theme is system, light or dark')).toBe('theme');
    expect(fieldOfError('cannot save the settings: disk full')).toBe('other');
  });
});

describe('rows', () => {
  it('reads result objects in column order, integer-like names included', () => {
    const cols = [
      { name: 'b', type: '' },
      { name: '2024', type: '' },
      { name: 'a', type: '' },
    ];
    expect(toRows(cols, [{ a: 1, '2024': 'x', b: null }])).toEqual([[null, 'x', 1]]);
  });
  it('finds numeric columns', () => {
    expect(numericColumns([[1, 'a', null], [2.5, 'b', null]], 3)).toEqual([true, false, false]);
  });
});
