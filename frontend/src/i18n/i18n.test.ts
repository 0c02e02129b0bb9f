import { describe, expect, it } from 'vitest';
import { catalogues, LANGS, systemLang, setLanguage, i18n, type Messages } from './index.svelte';
import { hardCoded } from './scan';

// The shape of a catalogue: every key, and for each a string or a function
// with its number of parameters.
function shape(m: unknown, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(m as Record<string, unknown>)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'function') out[key] = `function/${v.length}`;
    else if (v && typeof v === 'object') Object.assign(out, shape(v, key));
    else out[key] = typeof v;
  }
  return out;
}

describe('the catalogues', () => {
  const en = shape(catalogues.en);

  it.each(LANGS.filter((l) => l !== 'en'))('%s has every key of en.ts, and no other', (lang) => {
    const other = shape(catalogues[lang]);
    const missing = Object.keys(en).filter((k) => !(k in other));
    const extra = Object.keys(other).filter((k) => !(k in en));
    expect({ missing, extra }).toEqual({ missing: [], extra: [] });
    const kinds = Object.keys(en).filter((k) => en[k] !== other[k] && !(en[k].startsWith('function') && other[k].startsWith('function')));
    expect(kinds).toEqual([]);
  });

  it.each(LANGS)('%s has no empty message, and its functions return text', (lang) => {
    const empty: string[] = [];
    const walk = (m: unknown, prefix: string) => {
      for (const [k, v] of Object.entries(m as Record<string, unknown>)) {
        const key = `${prefix}.${k}`;
        if (typeof v === 'string' && !v.trim() && !key.endsWith('.empty')) empty.push(key);
        else if (typeof v === 'function') {
          const args = Array.from({ length: v.length }, () => '2');
          const r = (v as (...a: unknown[]) => unknown)(...args);
          if (typeof r !== 'string' || !r.trim()) empty.push(key);
        } else if (v && typeof v === 'object') walk(v, key);
      }
    };
    walk(catalogues[lang], lang);
    expect(empty).toEqual([]);
  });

  it('has French and Chinese words, not English ones left behind', () => {
    const strings = (m: Messages) => Object.entries(shape(m)).length;
    expect(strings(catalogues.fr)).toBe(strings(catalogues.en));
    const flat = (m: unknown): string[] =>
      Object.values(m as Record<string, unknown>).flatMap((v) => (typeof v === 'string' ? [v] : v && typeof v === 'object' ? flat(v) : []));
    const en = flat(catalogues.en);
    const zh = flat(catalogues.zh);
    const same = zh.filter((s, i) => s === en[i] && /[a-z]{4,}\s+[a-z]{3,}/i.test(s));
    expect(same).toEqual([]);
    expect(zh.filter((s) => /[\u4e00-\u9fff]/.test(s)).length).toBeGreaterThan(zh.length * 0.6);
  });
});

describe('the language', () => {
  it('follows the system: the first language the page has', () => {
    expect(systemLang(['fr-CA', 'en'])).toBe('fr');
    expect(systemLang(['de-DE', 'zh-Hans-CN', 'fr'])).toBe('zh');
    expect(systemLang(['zh-TW'])).toBe('zh');
    expect(systemLang(['de', 'es'])).toBe('en');
    expect(systemLang([])).toBe('en');
  });

  it('takes the Settings choice over the system, and "" or nonsense as the system', () => {
    expect(setLanguage('zh', ['fr'])).toBe('zh');
    expect(i18n.locale).toBe('zh-CN');
    expect(i18n.m).toBe(catalogues.zh);
    expect(setLanguage('', ['fr-FR'])).toBe('fr');
    expect(setLanguage('klingon', ['en-GB'])).toBe('en');
    expect(i18n.choice).toBe('');
  });
});

describe('the components', () => {
  const sources = import.meta.glob(['../components/*.svelte', '../App.svelte'], { query: '?raw', import: 'default', eager: true }) as Record<string, string>;

  it('finds a hard-coded word (the scanner itself)', () => {
    expect(hardCoded('<button title="Close it">{t.x}</button>').map((f) => f.text)).toEqual(['title="Close it"']);
    expect(hardCoded('<p>Hello {name}</p>').map((f) => f.text)).toEqual(['Hello']);
    expect(hardCoded(`<p>{open ? 'Hide details' : t.details}</p>`).length).toBe(1);
    expect(hardCoded(`<p class="btn ghost small" data-testid="x">{'btn small'} ×</p><span>{t.a} · {n}</span>`)).toEqual([]);
    expect(hardCoded('<script>const a = "Some words";</script><style>.a{}</style><kbd>Ctrl</kbd>+<kbd>Enter</kbd>')).toEqual([]);
  });

  it('hold no word outside the catalogue', () => {
    expect(Object.keys(sources).length).toBeGreaterThan(20);
    const found = Object.entries(sources).flatMap(([path, src]) => hardCoded(src).map((f) => `${path.replace('../', '')}:${f.line}: ${f.text}`));
    expect(found).toEqual([]);
  });
});

describe('numbers and dates for the language', async () => {
  const { formatCount, formatNumber, formatStat, formatCell, cellText, rawText, formatBytes, formatDuration, viewText } = await import('../lib/format');
  const { calendarTicks } = await import('../lib/chart');
  const { toTSV } = await import('../lib/tsv');

  it('writes them the English way by default, dates as stored', () => {
    setLanguage('en');
    expect([formatCount(1234567), formatNumber(1234.5678), formatCell(0.1), cellText('2020-01-22'), formatDuration(2)]).toEqual([
      '1,234,567',
      '1,234.57',
      '0.1',
      '2020-01-22',
      '2.0 s',
    ]);
    expect(calendarTicks(Date.UTC(2020, 0, 1), Date.UTC(2021, 0, 1)).label(Date.UTC(2020, 4, 1))).toBe('2020-05');
  });

  it('writes them the French way: spaces between thousands, a decimal comma, day/month/year', () => {
    setLanguage('fr');
    const nb = (s: string) => s.replace(/[\u202f\u00a0]/g, ' ');
    expect(nb(formatCount(1234567))).toBe('1 234 567');
    expect(nb(formatNumber(1234.5678))).toBe('1 234,57');
    expect(formatStat(3.14159)).toBe('3,142');
    expect(formatCell(0.1)).toBe('0,1');
    expect(viewText(791.9, { decimals: 2, blob: false })).toBe('791,90');
    expect(cellText('2020-01-22')).toBe('22/01/2020');
    expect(cellText('2020-01-22 14:05:09')).toBe('22/01/2020 14:05:09');
    expect(cellText('2020-02-30')).toBe('2020-02-30'); // not a date: as stored
    expect(cellText('Paris')).toBe('Paris');
    expect(formatBytes(1500)).toBe('1,5 ko');
    expect(formatDuration(2)).toBe('2,0 s');
    expect(calendarTicks(Date.UTC(2020, 0, 1), Date.UTC(2021, 0, 1)).label(Date.UTC(2020, 4, 1))).toBe('mai 2020');
    // Copies keep the exact values, whatever the language.
    expect(rawText(0.1)).toBe('0.1');
    expect(toTSV([[1234.5, '2020-01-22']], ['a', 'b'])).toBe('a\tb\n1234.5\t2020-01-22');
  });

  it('writes them the Chinese way', () => {
    setLanguage('zh');
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(cellText('2020-01-22')).toBe('2020/01/22');
    expect(formatDuration(0.5)).toBe('500 毫秒');
    expect(calendarTicks(Date.UTC(2020, 0, 1), Date.UTC(2021, 0, 1)).label(Date.UTC(2020, 4, 1))).toBe('2020年5月');
    setLanguage('en');
  });
});

describe('the connection warnings', async () => {
  const { warningsOf } = await import('../lib/said');
  type Warned = import('../lib/said').Warned;
  const { sentence } = await import('../lib/format');
  // As the services send them: the engine's English, and each warning said
  // in every language by Go (engine/words, the page's words).
  const dataset: Warned = {
    warnings: [
      "connected as postgres, a superuser: PostgreSQL lets this role change anything, read and write the server's files and run programs on it; Querent keeps every query read-only, but connect with a SELECT-only role to be safe without relying on Querent",
      'the connection to db.example.com is not encrypted: the queries and their answers cross the network in clear (sslmode=require encrypts it)',
      'a snapshot of the WAL file was read',
    ],
    warnings_said: [
      {
        en: "connected as postgres, a superuser: PostgreSQL lets this role change anything, read and write the server's files and run programs on it; Querent keeps every query read-only, but connect with a SELECT-only role to be safe without relying on Querent",
        fr: 'connecté en tant que postgres, un superutilisateur : PostgreSQL permet à ce rôle de tout modifier, de lire et d’écrire les fichiers du serveur et d’y lancer des programmes ; Querent garde chaque requête en lecture seule, mais connectez-vous avec un rôle limité à SELECT pour être protégé sans dépendre de Querent',
        zh: '以超级用户 postgres 连接：PostgreSQL 允许此角色修改任何内容、读写服务器上的文件并在其上运行程序；Querent 会让每个查询保持只读，但请使用只允许 SELECT 的角色连接，这样无需依赖 Querent 也能确保安全',
      },
      {
        en: 'the connection to db.example.com is not encrypted: the queries and their answers cross the network in clear (the SSL mode Require encrypts it)',
        fr: 'la connexion à db.example.com n’est pas chiffrée : les requêtes et leurs réponses circulent en clair sur le réseau (le mode SSL Exiger la chiffre)',
        zh: '到 db.example.com 的连接未加密：查询及其结果以明文在网络上传输（SSL 模式“必须”可加密连接）',
      },
      { en: 'a snapshot of the WAL file was read' },
    ],
  };

  it('says the engine’s warnings in the page’s language from what Go said, the role’s name kept', () => {
    setLanguage('en');
    expect(warningsOf(dataset).map((w) => sentence(w))[0]).toMatch(/^Connected as postgres, a superuser: PostgreSQL/);
    expect(warningsOf(dataset)[1]).toContain('(the SSL mode Require encrypts it)');
    setLanguage('fr');
    const fr = warningsOf(dataset).map((w) => sentence(w));
    expect(fr[0]).toMatch(/^Connecté en tant que postgres, un superutilisateur : PostgreSQL/);
    expect(fr[1]).toBe('La connexion à db.example.com n’est pas chiffrée : les requêtes et leurs réponses circulent en clair sur le réseau (le mode SSL Exiger la chiffre).');
    // What the engine wrote in English only is shown in English.
    expect(fr[2]).toBe('A snapshot of the WAL file was read.');
    setLanguage('zh');
    const zh = warningsOf(dataset).map((w) => sentence(w));
    expect(zh[0]).toMatch(/^以超级用户 postgres 连接：/);
    expect(zh[1]).toBe('到 db.example.com 的连接未加密：查询及其结果以明文在网络上传输（SSL 模式“必须”可加密连接）。');
    setLanguage('en');
    // A document without them says its own text.
    expect(warningsOf({ warnings: ['x'] })).toEqual(['x']);
    expect(warningsOf({ warnings: null })).toEqual([]);
  });

  it('recognises no warning by its English: the page has no pattern over it', () => {
    const libs = import.meta.glob('../lib/*.ts', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;
    expect(Object.keys(libs)).not.toContain('../lib/warnings.ts');
    expect(libs['../lib/said.ts']).toBeTruthy();
    expect(libs['../lib/said.ts']).not.toMatch(/RegExp|\.exec\(|\.test\(|\/\^/);
  });
});
