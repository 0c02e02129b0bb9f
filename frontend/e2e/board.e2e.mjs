#!/usr/bin/env node
// End-to-end check of the board of pinned answers, comparing two answers and
// exporting the grid's view (issue 25 §4) in a real browser (Debian's
// Chromium through playwright-core), in English, French and Chinese.
//
//   node e2e/board.e2e.mjs OUTDIR CHANGE_URL LANG=URL…
//
// Each URL is a `querent serve` address on its own copy of Chinook, its page
// in LANG, with a scripted Ollama (app/web/board_e2e_test.go); a POST to
// CHANGE_URL?lang=LANG adds two invoices to that copy (USA, and a new
// country). For each language: two answers pinned, a reload, the board shows
// them (first, while the file is as the window opened it: the sales grid
// filtered and sorted, exported as this view to CSV, the file's rows the
// grid's, in its order); the copy changed, "Re-run all", the sales card says
// what changed and the genres' card that nothing did; a note saved survives
// a reload; the two cards side by side (a table and a chart each), closed; a
// card unpinned. English also at 900×700 and
// 1920×1080 (nothing wider than the window). Screenshots go to OUTDIR
// (board-*-LANG.png); a failed check exits 1.
import { chromium } from 'playwright-core';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [outDir, changeURL, ...pairs] = process.argv.slice(2);
const servers = pairs.map((p) => p.split(/=(.*)/s).slice(0, 2));
if (!outDir || !changeURL || servers.length === 0 || servers.some(([l, u]) => !l || !u)) {
  console.error('usage: node e2e/board.e2e.mjs OUTDIR CHANGE_URL LANG=URL…');
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });
const said = {
  en: { q1: 'Sales by country', q2: 'Tracks per genre', pinned: 'Pinned', unchanged: 'Unchanged since it was pinned', changed: '1 row changed', added: '1 added', note: 'Check the USA figure on Monday', total: '2,328.6 → 2,433.6' },
  fr: { q1: 'Ventes par pays', q2: 'Titres par genre', pinned: 'Épinglée', unchanged: 'Inchangée depuis l’épinglage', changed: '1 ligne modifiée', added: '1 ajoutée', note: 'Vérifier le chiffre des USA lundi', total: '2 328,6 → 2 433,6' },
  zh: { q1: '各国销售额', q2: '各流派的曲目数', pinned: '已固定', unchanged: '固定以来没有变化', changed: '1 行有变化', added: '新增 1 行', note: '周一核对美国的数字', total: '2,328.6 → 2,433.6' },
};
const tid = (id) => `[data-testid="${id}"]`;
let step = 'starting';
function check(cond, message) {
  if (!cond) throw new Error(`${step}: ${message}`);
}
function log(msg) {
  console.error(`e2e board: ${msg}`);
}
// Spaces as the locales write them (French groups with narrow no-break spaces).
const plain = (s) => s.replace(/[\u202f\u00a0]/g, ' ');

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
    acceptDownloads: true,
  });
  context.setDefaultTimeout(20000);
  for (const [lang, url] of servers) {
    const w = said[lang];
    check(!!w, `no words for ${lang}`);
    const page = await context.newPage();
    const pageErrors = [];
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    const shot = async (name) => {
      await page.waitForTimeout(250);
      await page.screenshot({ path: join(outDir, `${name}-${lang}.png`) });
      log(`screenshot ${name}-${lang}.png`);
    };
    const fits = async (what) => {
      const over = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      check(over <= 1, `${what}: the page is ${over}px wider than the window`);
    };
    const cards = page.locator(tid('answer'));
    const card = (q) => cards.filter({ has: page.locator(tid('answer-heading'), { hasText: q }) }).first();
    const ask = async (q) => {
      const n = await cards.count();
      await page.fill(tid('question-input'), q);
      await page.press(tid('question-input'), 'Enter');
      await page.waitForFunction((n) => {
        const all = [...document.querySelectorAll('[data-testid="answer"]')];
        const id = all.at(-1)?.getAttribute('data-answer-id');
        return all.length === n + 1 && !!id && !id.endsWith('.0');
      }, n, { timeout: 30000 });
      await page.waitForFunction(() => !document.querySelector('[data-testid="card-cancel"]'), null, { timeout: 30000 });
    };
    const ready = () => page.locator(`${tid('question-input')}:not([disabled])`).waitFor();
    const boardCards = page.locator(tid('board-card'));
    const boardCard = (q) => boardCards.filter({ has: page.locator(tid('board-question'), { hasText: q }) }).first();
    const openBoard = async () => {
      if ((await page.locator(tid('board')).count()) === 0) await page.click(tid('board-open'));
      await page.locator(tid('board')).waitFor();
    };

    step = `${lang}: pin two answers`;
    await page.goto(url);
    await ready();
    for (const q of [w.q1, w.q2]) {
      await ask(q);
      const pin = card(q).locator(tid('pin'));
      await pin.click();
      await page.waitForFunction(
        ([sel, text]) => document.querySelector(sel)?.textContent?.trim() === text,
        [`[data-card-id="${await card(q).getAttribute('data-card-id')}"] [data-testid="pin"]`, w.pinned],
      );
    }
    check(plain(await page.locator(tid('board-open')).innerText()).endsWith('2'), `the board's button: ${await page.locator(tid('board-open')).innerText()}`);

    step = `${lang}: export the filtered and sorted view`;
    const sc = card(w.q1);
    await sc.waitFor();
    // An older card of the thread folds: open it.
    if ((await sc.locator(tid('card-fold')).getAttribute('aria-expanded')) === 'false') await sc.locator(tid('card-fold')).click();
    await sc.locator(tid('filter-button')).click();
    await sc.locator(tid('grid-filter')).nth(1).fill('>100');
    await sc.locator(tid('grid-header')).nth(1).click();
    await sc.locator(tid('grid-header')).nth(1).click(); // descending
    await page.waitForTimeout(200);
    const shown = [];
    for (const row of await sc.locator(tid('grid-row')).all()) shown.push(await row.locator('.td').first().innerText());
    check(shown.length >= 5 && shown[0] === 'USA', `the grid's view: ${shown.join(', ')}`);
    await sc.locator(tid('export-button')).click();
    await page.locator(tid('export-dialog')).waitFor();
    const viewLabel = plain(await page.locator(tid('export-view')).locator('xpath=..').innerText());
    check(viewLabel.includes(String(shown.length)), `the view's choice: ${viewLabel}`);
    check(await page.locator(tid('export-view')).isChecked(), 'the view is not chosen first');
    await page.check(tid('export-format-csv'));
    await shot('board-export-view');
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 30000 }).catch(async (e) => {
        throw new Error(`no download (${e.message}); the dialog says: ${await page.locator(tid('export-dialog')).innerText()}`);
      }),
      page.click(tid('export-confirm')),
    ]);
    const csvPath = join(outDir, `board-view-${lang}.csv`);
    await download.saveAs(csvPath);
    const lines = readFileSync(csvPath, 'utf8').replace(/^\uFEFF/, '').trim().split(/\r?\n/);
    const countries = lines.slice(1).map((l) => l.split(',')[0]);
    check(lines[0] === 'country,sales' && countries.join('|') === shown.join('|'), `the exported view: ${lines.join(' / ')} (the grid: ${shown.join(', ')})`);
    await page.locator(tid('export-done')).waitFor();
    await page.click(tid('export-close'));

    step = `${lang}: reload, the board shows them`;
    await page.reload();
    await ready();
    await page.waitForFunction(() => /2$/.test(document.querySelector('[data-testid="board-open"]')?.textContent?.trim() ?? ''));
    await openBoard();
    check((await boardCards.count()) === 2, `the board has ${await boardCards.count()} cards`);
    const meta = plain(await boardCard(w.q1).locator(tid('board-meta')).innerText());
    check(meta.includes('24'), `the sales card's summary: ${meta}`);
    check((await boardCard(w.q1).locator('.mini tr').count()) === 6, 'the sales card does not show its first five rows');
    await shot('board-pinned');

    step = `${lang}: the copy changes, re-run all`;
    const res = await fetch(`${changeURL}?lang=${lang}`, { method: 'POST' });
    check(res.status === 204, `the change server answered ${res.status}: ${await res.text()}`);
    await page.click(tid('board-rerun'));
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="board-change"]')].every((e) => e.classList.contains('same') || e.classList.contains('moved')));
    const sales = plain(await boardCard(w.q1).locator(tid('board-change')).innerText());
    check(sales.includes(w.changed) && sales.includes(w.added) && sales.includes('24 → 25') && sales.includes(w.total), `what changed on the sales card: ${sales}`);
    check(sales.includes('USA'), `the sales card does not name the changed row: ${sales}`);
    const genres = plain(await boardCard(w.q2).locator(tid('board-change')).innerText());
    check(genres.includes(w.unchanged), `the genres' card: ${genres}`);
    await shot('board-changed');

    step = `${lang}: a note`;
    await boardCard(w.q1).locator(tid('board-note')).fill(w.note);
    await boardCard(w.q1).locator(tid('board-note-save')).click();
    await page.waitForFunction(() => document.querySelector('[data-testid="board-note-save"]')?.hasAttribute('disabled'));
    await page.reload();
    await ready();
    await openBoard();
    await boardCards.first().waitFor();
    check((await boardCard(w.q1).locator(tid('board-note')).inputValue()) === w.note, 'the note is gone after a reload');
    check(plain(await boardCard(w.q1).locator(tid('board-change')).innerText()).includes('24 → 25'), 'the re-run is gone after a reload');

    step = `${lang}: compare two`;
    await boardCard(w.q1).locator(tid('board-compare')).click();
    await page.locator(tid('compare-pick')).waitFor();
    await boardCard(w.q2).locator(tid('board-compare')).click();
    const cmp = page.locator(tid('compare'));
    await cmp.waitFor();
    check((await cmp.locator(tid('compare-side')).count()) === 2, 'the comparison does not have two sides');
    const heads = await cmp.locator(tid('compare-heading')).allInnerTexts();
    check(heads.includes(w.q1) && heads.includes(w.q2), `the sides: ${heads.join(' | ')}`);
    for (const side of await cmp.locator(tid('compare-side')).all()) {
      check((await side.locator(tid('result-grid')).count()) === 1, 'a side has no table');
      await side.locator('canvas').first().waitFor();
    }
    await fits('the comparison');
    await shot('board-compare');
    if (lang === 'en') {
      for (const [width, height] of [[900, 700], [1920, 1080]]) {
        await page.setViewportSize({ width, height });
        await fits(`the comparison at ${width}×${height}`);
        await page.screenshot({ path: join(outDir, `board-compare-${width}-${lang}.png`) });
        await cmp.locator(tid('compare-close')).click();
        await fits(`the board at ${width}×${height}`);
        await page.screenshot({ path: join(outDir, `board-${width}-${lang}.png`) });
        log(`screenshots board-compare-${width}-${lang}.png, board-${width}-${lang}.png`);
        await boardCard(w.q1).locator(tid('board-compare')).click();
        await boardCard(w.q2).locator(tid('board-compare')).click();
        await cmp.waitFor();
      }
      await page.setViewportSize({ width: 1360, height: 880 });
    }
    await cmp.locator(tid('compare-close')).click();
    await cmp.waitFor({ state: 'detached' });

    step = `${lang}: unpin`;
    await openBoard();
    await boardCard(w.q2).locator(tid('board-unpin')).click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="board-card"]').length === 1);
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
  console.error(`e2e board FAILED at ${step}: ${failed.message}`);
  process.exit(1);
}
