import { describe, expect, it } from 'vitest';
import { friendly, hasDetails, serverBack } from './errors';
import { i18n } from '../i18n/index.svelte';

const doc = (type: string, message = 'engine message', hint = 'engine hint') => ({ type, message, hint });

describe('errors in plain words', () => {
  it('explains a refused write without the engine text', () => {
    const f = friendly(doc('refused', 'DELETE from Invoice would write to the database'));
    expect(f.title).toBe('That query would change the database.');
    expect(f.next).toBe('Querent only reads: ask for the data instead.');
    expect(f.title + f.body + f.next).not.toContain('DELETE');
  });

  it('says Ollama is down and how to start it', () => {
    const f = friendly(doc('llm_unavailable'));
    expect(f.title).toBe("Ollama isn't running.");
    expect(f.next).toContain('ollama serve');
    expect(f.next).toContain('Direct SQL still works');
    expect(f.actions).toContain('check-ollama');
  });

  it('offers the download for a missing model', () => {
    expect(friendly(doc('model_missing')).actions).toContain('pull-model');
  });

  it('shows the closest columns from the hint', () => {
    const f = friendly(doc('unknown_column', 'no such column: Nme', 'did you mean Name or Title?'));
    expect(f.body).toBe('Did you mean Name or Title?');
  });

  it('lists every mistake of a file, one a line', () => {
    const f = friendly(doc('usage', 'gold.toml:3: item 1 (x): unknown field "sqll"\ngold.toml:9: item 2 (y): no question', 'fix the gold set file'));
    expect(f.title).toBe('There are mistakes to fix:');
    expect(f.body.split('\n')).toHaveLength(2);
    expect(f.next).toBe('Fix the gold set file.');
    expect(friendly(doc('usage', 'no database is open', 'open one')).title).toBe('No database is open.');
  });

  it('says where to allow a refused superuser, with the engine\'s reason', () => {
    const msg = 'postgres://postgres@db:5432/sales: the role postgres is a superuser, and Querent does not connect as one unless told to: a superuser may read and write the server\'s files and run programs on it';
    const refused = { ...doc('database', msg, 'connect as a SELECT-only role (…), or allow superusers explicitly (--allow-superuser; in the app, Settings)'), key: 'role.superuser_refused' };
    const f = friendly(refused, { postgres: true });
    expect(f.title).toBe('This role is a superuser, and Querent does not connect as one unless Settings allow it.');
    expect(f.body).toContain('the role postgres is a superuser');
    expect(f.next).toContain('Allow superusers (not recommended)');
    expect(f.actions).toEqual(['open-settings']);
    // Allowed, but Settings ask for a read-only role: that refusal instead.
    const ro = friendly({ ...doc('database', 'postgres://postgres@db:5432/sales: the role postgres may do more than read (a superuser), and a read-only role is required'), key: 'role.readonly_required' }, { postgres: true });
    expect(ro.title).toContain('Settings ask for a read-only role');
    // Told apart by the key, not the English: a SQLite file is never a superuser's.
    expect(friendly(doc('database', 'x is a superuser')).title).toBe("The database couldn't be read.");
    expect(friendly(doc('database', 'x is a superuser'), { postgres: true }).title).not.toContain('superuser');
  });

  it('says the message and hint in the page\'s language and words, as Go said them', async () => {
    const { setLanguage } = await import('../i18n/index.svelte');
    const e = {
      type: 'database',
      message: 'the role u may do more than read (may create schemas), and a read-only role is required',
      hint: 'allow more time (--timeout) or ask for less',
      key: 'role.readonly_required',
      message_said: { en: 'the role u may do more than read (may create schemas), and a read-only role is required', fr: 'le rôle u peut faire plus que lire (peut créer des schémas), et un rôle en lecture seule est exigé' },
      hint_said: { en: 'allow more time (Timeout, in Settings) or ask for less', fr: 'accordez plus de temps (Délai maximal, dans les Réglages) ou demandez moins' },
    };
    setLanguage('fr');
    expect(friendly(e).body).toBe('Le rôle u peut faire plus que lire (peut créer des schémas), et un rôle en lecture seule est exigé.');
    expect(friendly({ ...e, type: 'import' }).next).toBe('Accordez plus de temps (Délai maximal, dans les Réglages) ou demandez moins.');
    setLanguage('zh');
    // No Chinese: English, in the page's words, never the command line's.
    expect(friendly({ ...e, type: 'import' }).next).toBe('Allow more time (Timeout, in Settings) or ask for less.');
    setLanguage('en');
  });

  it("uses the settings' timeout", () => {
    expect(friendly(doc('timeout'), { timeoutS: 45 }).title).toBe('The query took longer than 45 s and was stopped.');
    expect(friendly(doc('timeout')).title).toContain('30 s');
  });

  it("puts the model's question first", () => {
    const f = friendly(doc('clarification_needed', 'which year do you mean?'));
    expect(f.prominent).toBe(true);
    expect(f.body).toBe('Which year do you mean?');
  });

  it('says what the database lacks', () => {
    expect(friendly(doc('unanswerable', 'the schema has no salaries.')).title).toBe(
      "This database doesn't hold that data: the schema has no salaries.",
    );
  });

  it('says Stopped for a cancel', () => {
    expect(friendly(doc('cancelled')).title).toBe('Stopped.');
  });

  it('has a message for every type, and for unknown ones', () => {
    for (const t of [
      'syntax',
      'unknown_table',
      'too_big',
      'model_error',
      'database',
      'import',
      'export',
      'usage',
      'internal',
      'connection',
      'unauthorized',
      'something_new',
    ]) {
      const f = friendly(doc(t));
      expect(f.title, t).toMatch(/\S/);
    }
    expect(friendly(doc('something_new')).title).toBe('Something went wrong inside Querent.');
  });

  it('knows when there are details to show', () => {
    expect(hasDetails({ message: '', hint: '', query: '' })).toBe(false);
    expect(hasDetails({ message: 'x', hint: '', query: '' })).toBe(true);
  });
});

describe("the user's names keep their case (defect 2)", () => {
  it('never capitalises a path or a file name', () => {
    expect(friendly(doc('database', 'imports/messy.sqlite: no such file', 'check the path')).body).toBe('imports/messy.sqlite: no such file.');
    expect(friendly(doc('import', 'binary.csv is not a text file: it looks like binary data')).body).toBe(
      'binary.csv is not a text file: it looks like binary data.',
    );
    expect(friendly(doc('database', 'the file is empty')).body).toBe('The file is empty.');
  });
});

describe('a glossary entry’s SQL', () => {
  it('is told by its key, with the closest names and the panel’s next step', () => {
    const f = friendly({ type: 'unknown_column', key: 'glossary.sql_refused', message: 'the SQL of "big invoice" does not compile against the database: no such column: Totl', hint: 'did you mean Total?' });
    expect(f.title).toContain('big invoice');
    expect(f.body).toContain('Total');
    expect(f.next).toBe(i18n.m.errors.glossarySQL);
    expect(f.actions).toEqual([]);
  });

  it('says to ask again once the model server is back (issue 25: "Check again")', () => {
    expect(serverBack({ type: 'llm_unavailable' }, { running: true, model: 'qwen2.5-coder:7b' })).toBe(true);
    expect(serverBack({ type: 'model_missing' }, { running: true, model: 'qwen2.5-coder:7b' })).toBe(true);
    expect(serverBack({ type: 'llm_unavailable' }, { running: false, model: '' })).toBe(false);
    expect(serverBack({ type: 'llm_unavailable' }, { running: true, model: '' })).toBe(false);
    expect(serverBack({ type: 'llm_unavailable' }, null)).toBe(false);
    expect(serverBack({ type: 'syntax' }, { running: true, model: 'm' })).toBe(false);
  });
});
