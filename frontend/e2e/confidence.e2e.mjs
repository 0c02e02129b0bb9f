#!/usr/bin/env node
// End-to-end check of an answer's confidence in a real browser (Debian's
// Chromium through playwright-core).
//
//   node e2e/confidence.e2e.mjs OUTDIR LANG=URL…
//
// Each URL is a `querent serve` address (token included) on the demo
// database, its page in the language LANG (en, fr or zh, from Settings),
// with Ollama pointing at a scripted fake (app/web/confidence_e2e_test.go)
// that answers "What are the total sales?" with a doubtful answer — a
// repair, then the minutes of music — and the other readings with the
// invoices' total. The script asks it, sees the rows, then the majority's
// result with its badge, the reasons in the page's language and the other
// result one click away; "Use this result" runs it in the card. It asks
// "How many tracks are there?" too: high confidence, no other result.
// Screenshots go to OUTDIR (confidence-LANG.png); a failed check exits 1.
import { chromium } from 'playwright-core';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [outDir, ...servers] = process.argv.slice(2);
if (!outDir || servers.length === 0) {
  console.error('usage: node e2e/confidence.e2e.mjs OUTDIR LANG=URL…');
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });
const tid = (id) => `[data-testid="${id}"]`;
let step = 'starting';
function check(cond, message) {
  if (!cond) throw new Error(`${step}: ${message}`);
}

// What each language says, from the page's catalogues and Go's words.
const SAID = {
  en: { badge: 'Medium confidence', high: 'High confidence', reason: 'read Track.Milliseconds instead of Invoice.Total', agree: '3 of 4 readings agree' },
  fr: { badge: 'Confiance moyenne', high: 'Confiance élevée', reason: 'lit Track.Milliseconds au lieu de Invoice.Total', agree: '3 lectures sur 4 concordent' },
  zh: { badge: '可信度中', high: '可信度高', reason: '读取了 Track.Milliseconds，而不是 Invoice.Total', agree: '4 种解读中有 3 种一致' },
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
    step = `${lang}: loading`;
    await page.goto(url);
    await page.waitForSelector(tid('question-input'));

    step = `${lang}: a clean count`;
    await page.fill(tid('question-input'), 'How many tracks are there?');
    await page.press(tid('question-input'), 'Enter');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="confidence-badge"]').length === 1);
    const first = page.locator(tid('answer')).last();
    check((await first.locator(tid('confidence-badge')).innerText()).includes(said.high), 'the count should be high confidence');
    check((await first.locator(tid('alternatives')).count()) === 0, 'the count should have no other result');

    step = `${lang}: a doubtful answer`;
    await page.fill(tid('question-input'), 'What are the total sales?');
    await page.press(tid('question-input'), 'Enter');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="answer"]').length === 2);
    const card = page.locator(tid('answer')).last();
    // The rows come first; the votes follow, then the majority's result.
    await card.locator(tid('alternatives')).waitFor();
    await page.waitForFunction(() => !document.querySelector('[data-testid="confidence-voting"]'));
    const badge = await card.locator(tid('confidence-badge')).innerText();
    check(badge.includes(said.badge), `the badge says "${badge}", want "${said.badge}"`);
    const agree = await card.locator(tid('confidence-agree')).innerText();
    check(agree.includes(said.agree), `the agreement says "${agree}", want "${said.agree}"`);
    const grid = await card.locator(tid('result-grid')).innerText();
    check(/2[ ,.\u202f]?328[.,]6/.test(grid), `the majority's result 2328.6 should be in the grid: ${grid.slice(0, 200)}`);
    await card.locator(tid('alternatives')).locator('summary').click();
    const alt = await card.locator(tid('alternative')).first().innerText();
    check(alt.includes(said.reason), `the other result says "${alt.slice(0, 200)}", want "${said.reason}"`);
    check(alt.includes('SELECT sum(Milliseconds)'), 'the other result shows its SQL');
    await card.screenshot({ path: join(outDir, `confidence-${lang}.png`) });

    step = `${lang}: use the other result`;
    await card.locator(tid('use-alternative')).first().click();
    await page.waitForFunction(() => {
      const cards = document.querySelectorAll('[data-testid="answer"]');
      const g = cards[cards.length - 1]?.querySelector('[data-testid="result-grid"]');
      return g && /1[ ,.\u202f]?378[ ,.\u202f]?778[ ,.\u202f]?040/.test(g.textContent || '');
    });
    check(pageErrors.length === 0, `page errors: ${pageErrors.join('; ')}`);
    await page.close();
  }
} catch (e) {
  failed = e;
} finally {
  await context?.close();
  rmSync(userDataDir, { recursive: true, force: true });
}
if (failed) {
  console.error(`e2e confidence: ${failed.message}`);
  process.exit(1);
}
console.error('e2e confidence: ok');
