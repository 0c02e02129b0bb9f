#!/usr/bin/env node
// End-to-end check of the start view in a real browser (Debian's Chromium
// through playwright-core).
//
//   node e2e/start.e2e.mjs OUTDIR LANG=URL…
//
// Each URL is a `querent serve` address (token included) on the demo
// database, its page in the language LANG (en, fr or zh, from Settings)
// (app/web/start_e2e_test.go). With the thread empty the start view shows
// the tables as cards and the suggested questions in the page's language;
// a click on a suggestion adds its answer card with rows; the start view
// goes, and the "Overview" button brings it back. Screenshots go to OUTDIR
// (start-LANG.png, start-answer-LANG.png, start-again-LANG.png); a failed check exits 1.
import { chromium } from 'playwright-core';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [outDir, ...servers] = process.argv.slice(2);
if (!outDir || servers.length === 0) {
  console.error('usage: node e2e/start.e2e.mjs OUTDIR LANG=URL…');
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });
const tid = (id) => `[data-testid="${id}"]`;
let step = 'starting';
function check(cond, message) {
  if (!cond) throw new Error(`${step}: ${message}`);
}

// What each language says (the page's catalogues) and a word its
// suggestions hold (Go's templates in engine/profile).
const SAID = {
  en: { title: 'A first look at this database', overview: 'Overview', word: /[A-Za-z]/, notWord: /[\u4e00-\u9fff]/ },
  fr: { title: 'Un premier regard sur cette base', overview: 'Aperçu', word: /[éèàç]|\b(par|de|des|les)\b/, notWord: /[\u4e00-\u9fff]/ },
  zh: { title: '初步了解这个数据库', overview: '概览', word: /[\u4e00-\u9fff]/, notWord: /^$/ },
};

const userDataDir = mkdtempSync(join(tmpdir(), 'querent-e2e-chromium-'));
let context;
let failed = null;
try {
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    viewport: { width: 1280, height: 1000 },
    colorScheme: 'light',
  });
  context.setDefaultTimeout(20000);
  for (const server of servers) {
    const [lang, url] = [server.slice(0, server.indexOf('=')), server.slice(server.indexOf('=') + 1)];
    const said = SAID[lang];
    const page = await context.newPage();
    const pageErrors = [];
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    step = `${lang}: the start view`;
    await page.goto(url);
    await page.waitForSelector(tid('start-view'));
    // The first look profiles every table and runs the suggestions: give a loaded machine time.
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="start-suggestion"]').length >= 5, null, { timeout: 60000 });
    const view = page.locator(tid('start-view'));
    const head = await view.locator('h2').innerText();
    check(head === said.title, `the start view's title is "${head}", want "${said.title}"`);
    const tables = await view.locator(tid('start-table')).count();
    check(tables === 11, `${tables} table cards, want Chinook's 11`);
    const track = await view.locator('[data-table="Track"]').innerText();
    check(/3[ ,.\u202f]?503/.test(track), `the Track card should say its 3,503 rows: ${track.slice(0, 200)}`);
    check((await view.locator('[data-table="Track"] .nullbar').count()) > 0, 'the Track card has no null bars');
    // A number or a date with many values: a small histogram and its range.
    const inv = view.locator('[data-table="Invoice"]');
    check((await inv.locator(tid('start-histogram')).count()) > 0, 'the Invoice card has no histogram');
    const range = (await inv.locator(tid('start-range')).allInnerTexts()).join(' | ');
    check(/2009/.test(range) && /2013/.test(range), `the Invoice card gives InvoiceDate's range: ${range}`);
    const joins = await view.locator(tid('start-joins')).innerText();
    check(joins.includes('Track.AlbumId') && joins.includes('Album.AlbumId'), `the joins: ${joins.slice(0, 200)}`);
    const suggestions = await view.locator(tid('start-suggestion')).allInnerTexts();
    check(suggestions.length >= 5 && suggestions.length <= 10, `${suggestions.length} suggestions`);
    const questions = suggestions.map((s) => s.split('\n')[0]);
    check(questions.every((q) => !said.notWord.test(q)) && questions.filter((q) => said.word.test(q)).length >= questions.length / 2,
      `the suggestions are not in ${lang}: ${questions.join(' | ')}`);
    await page.screenshot({ path: join(outDir, `start-${lang}.png`), fullPage: false });

    step = `${lang}: a suggestion's answer`;
    await view.locator(tid('start-suggestion')).first().click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="answer"] [data-testid="grid-row"]').length > 0, null, { timeout: 60000 });
    const card = page.locator(tid('answer')).last();
    const cardText = await card.innerText();
    check(cardText.includes(questions[0]), `the answer card should be headed by the question "${questions[0]}": ${cardText.slice(0, 200)}`);
    check((await page.locator(tid('start-view')).count()) === 0, 'the start view should give way to the answer');
    await page.screenshot({ path: join(outDir, `start-answer-${lang}.png`), fullPage: false });

    step = `${lang}: the start view one click away`;
    const open = page.locator(tid('start-open'));
    check((await open.innerText()).trim() === said.overview, `the button says "${await open.innerText()}", want "${said.overview}"`);
    await open.click();
    await page.waitForSelector(tid('start-view'));
    check((await page.locator(tid('start-suggestion')).count()) === suggestions.length, 'the start view came back without its suggestions');
    check((await page.locator(tid('answer')).count()) === 1, 'the answer card should stay in the thread');
    await page.screenshot({ path: join(outDir, `start-again-${lang}.png`), fullPage: false });
    check(pageErrors.length === 0, `page errors: ${pageErrors.join('; ')}`);
    await page.close();
  }
} catch (e) {
  failed = e instanceof Error && !e.message.startsWith(step) ? new Error(`${step}: ${e.message}`) : e;
} finally {
  await context?.close();
  rmSync(userDataDir, { recursive: true, force: true });
}
if (failed) {
  console.error(`e2e start: ${failed.message}`);
  process.exit(1);
}
console.error('e2e start: ok');
