#!/usr/bin/env node
// End-to-end check of the glossary panel (issue 23) in a real browser
// (Debian's Chromium through playwright-core), in English, French and
// Chinese.
//
//   node e2e/glossary.e2e.mjs OUTDIR LANG=URL…
//
// Each URL is a `querent serve` address (token included) on its own copy of
// Chinook, its page in LANG, with a scripted Ollama
// (app/web/glossary_e2e_test.go). The database's glossary holds one stale
// entry (its SQL names a column the database does not have). For each
// language the script opens the panel (the stale entry is flagged, with its
// problem), saves a term whose SQL names a wrong column (refused, the
// closest column named, nothing saved), fixes the SQL and saves it (listed),
// edits it back into the form, asks a question that uses the term in the
// plural (the card lists the glossary entry used) and one that does not
// (no glossary on the card), then removes the term. Screenshots go to
// OUTDIR (glossary-*-LANG.png); a failed check exits 1.
import { chromium } from 'playwright-core';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [outDir, ...pairs] = process.argv.slice(2);
const servers = pairs.map((p) => p.split(/=(.*)/s).slice(0, 2));
if (!outDir || servers.length === 0 || servers.some(([l, u]) => !l || !u)) {
  console.error('usage: node e2e/glossary.e2e.mjs OUTDIR LANG=URL…');
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });

// The term, its meaning and question in each language, and what the page says.
const said = {
  en: { term: 'big invoice', meaning: 'an invoice over 20 dollars', synonyms: 'large invoice', question: 'How many big invoices are there?', other: 'How many tracks are there?', used: 'Glossary used:' },
  fr: { term: 'grosse facture', meaning: 'une facture de plus de 20 dollars', synonyms: 'facture élevée', question: 'Combien y a-t-il de grosses factures ?', other: 'Combien de morceaux y a-t-il ?', used: 'Glossaire utilisé' },
  zh: { term: '大额发票', meaning: '金额超过 20 美元的发票', synonyms: '大发票', question: '有多少张大额发票？', other: '有多少首曲目？', used: '使用的术语' },
};
const tid = (id) => `[data-testid="${id}"]`;
let step = 'starting';
function check(cond, message) {
  if (!cond) throw new Error(`${step}: ${message}`);
}
function log(msg) {
  console.error(`e2e glossary: ${msg}`);
}

const userDataDir = mkdtempSync(join(tmpdir(), 'querent-e2e-chromium-'));
let context;
let failed = null;
try {
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    viewport: { width: 1360, height: 880 },
    colorScheme: 'light',
  });
  context.setDefaultTimeout(20000);
  for (const [lang, url] of servers) {
    const w = said[lang];
    check(!!w, `no words for ${lang}`);
    const page = await context.newPage();
    const pageErrors = [];
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    const shot = async (name, el) => {
      await page.waitForTimeout(200);
      const path = join(outDir, `${name}-${lang}.png`);
      if (el) await el.screenshot({ path });
      else await page.screenshot({ path });
      log(`screenshot ${name}-${lang}.png`);
    };
    const panel = page.locator(tid('glossary-panel'));
    const items = panel.locator(tid('glossary-item'));
    const lastCard = () => page.locator(tid('answer')).last();
    const answerId = () =>
      page.evaluate(() => [...document.querySelectorAll('[data-testid="answer"]')].at(-1)?.getAttribute('data-answer-id') ?? null);
    const ask = async (q) => {
      if (await page.locator(tid('new-conversation')).count()) await page.click(tid('new-conversation'));
      const prev = await answerId();
      await page.fill(tid('question-input'), q);
      await page.press(tid('question-input'), 'Enter');
      await page.waitForFunction(
        (p) => {
          const id = [...document.querySelectorAll('[data-testid="answer"]')].at(-1)?.getAttribute('data-answer-id');
          return !!id && id !== p && !id.endsWith('.0');
        },
        prev,
        { timeout: 30000 },
      );
      await page.waitForFunction(() => !document.querySelector('[data-testid="card-cancel"]'), null, { timeout: 30000 });
    };
    const fill = async (term, meaning, synonyms, sql) => {
      await panel.locator(tid('glossary-term')).fill(term);
      await panel.locator(tid('glossary-meaning')).fill(meaning);
      await panel.locator(tid('glossary-synonyms')).fill(synonyms);
      await panel.locator(tid('glossary-sql')).fill(sql);
    };

    step = `${lang}: open`;
    await page.goto(url);
    await page.locator(`${tid('question-input')}:not([disabled])`).waitFor();
    await page.click(tid('glossary-button'));
    await panel.waitFor();
    await items.first().waitFor();
    check((await items.count()) === 1, `the panel lists ${await items.count()} entries, not the one stale entry`);
    check((await items.first().getAttribute('data-stale')) === 'true', 'the entry over a missing column is not flagged stale');
    const stale = await items.first().innerText();
    check(stale.includes('Discount'), `the stale entry does not say what is wrong: ${stale}`);
    await shot('glossary-stale', panel);

    step = `${lang}: a wrong column is refused`;
    await fill(w.term, w.meaning, w.synonyms, 'Totl > 20');
    await panel.locator(tid('glossary-save')).click();
    const banner = panel.locator(`${tid('glossary-form')} ${tid('error-banner')}`);
    await banner.waitFor();
    const refusal = await banner.innerText();
    check(refusal.includes('Totl') && refusal.includes('Total'), `the refusal does not name the column and the closest one: ${refusal}`);
    log(`${lang} refusal: ${refusal.replace(/\s+/g, ' ').slice(0, 160)}`);
    check((await items.count()) === 1, 'a refused entry was saved');
    await shot('glossary-refused', panel);

    step = `${lang}: saved`;
    await panel.locator(tid('glossary-sql')).fill('Total > 20');
    await panel.locator(tid('glossary-save')).click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="glossary-item"]').length === 2);
    check((await banner.count()) === 0, 'the refusal is still shown after saving');
    const saved = panel.locator(tid('glossary-item')).filter({ hasText: w.term });
    check((await saved.count()) === 1, `the saved term ${w.term} is not listed`);
    const savedText = await saved.innerText();
    check(savedText.includes(w.synonyms) && savedText.includes('Total > 20'), `the saved entry: ${savedText}`);
    check((await saved.getAttribute('data-stale')) === 'false', 'the saved entry is stale');
    check((await panel.locator(tid('glossary-term')).inputValue()) === '', 'the form is not cleared after saving');
    await shot('glossary-saved', panel);

    step = `${lang}: edit`;
    await saved.locator(tid('glossary-edit')).click();
    check((await panel.locator(tid('glossary-term')).inputValue()) === w.term, 'edit does not put the term in the form');
    check((await panel.locator(tid('glossary-sql')).inputValue()) === 'Total > 20', 'edit does not put the SQL in the form');
    await fill('', '', '', '');
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });

    step = `${lang}: a question that uses the term`;
    await ask(w.question);
    await lastCard().locator(tid('glossary-used')).waitFor();
    const used = await lastCard().locator(tid('glossary-used')).innerText();
    check(used.includes(w.used) && used.includes(w.term), `the card's glossary line: ${used}`);
    await shot('glossary-used', lastCard());

    step = `${lang}: a question that does not`;
    await ask(w.other);
    check((await lastCard().locator(tid('glossary-used')).count()) === 0, 'a question without the term lists the glossary');

    step = `${lang}: remove`;
    await page.click(tid('glossary-button'));
    await panel.waitFor();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="glossary-item"]').length === 2);
    await panel.locator(tid('glossary-item')).filter({ hasText: w.term }).locator(tid('glossary-remove')).click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="glossary-item"]').length === 1);
    await page.keyboard.press('Escape');
    check(pageErrors.length === 0, `page errors: ${pageErrors.join('; ')}`);
    await page.close();
  }
  log('ok');
} catch (e) {
  failed = e;
} finally {
  await context?.close().catch(() => {});
  rmSync(userDataDir, { recursive: true, force: true });
}
if (failed) {
  console.error(`e2e glossary FAILED: ${failed.message}`);
  process.exit(1);
}
