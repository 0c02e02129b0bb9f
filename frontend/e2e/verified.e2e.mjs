#!/usr/bin/env node
// End-to-end check of the analyst's verdict on the answer card (issue 23)
// in a real browser (Debian's Chromium through playwright-core).
//
//   node e2e/verified.e2e.mjs OUTDIR WRONG_SQL RIGHT_SQL LANG=URL…
//
// Each URL is a `querent serve` address (token included) on its own copy of
// Chinook, its page in LANG (en, fr, zh), with a scripted Ollama
// (app/web/verified_e2e_test.go) that answers "Which track sold best?" (in
// that language) with WRONG_SQL. The script approves another answer, tries
// a correction that does not compile (refused: the banner says why and
// names the closest column, the card keeps its answer), corrects with
// RIGHT_SQL (its result replaces the card's), and asks a like question,
// whose card says it learned from verified answers — all in the page's
// language. Screenshots go to OUTDIR (verified-*-LANG.png).
import { chromium } from 'playwright-core';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [outDir, wrongSQL, rightSQL, ...pairs] = process.argv.slice(2);
const servers = pairs.map((p) => p.split(/=(.*)/s).slice(0, 2));
if (!outDir || !wrongSQL || !rightSQL || servers.length === 0 || servers.some(([l, u]) => !l || !u)) {
  console.error('usage: node e2e/verified.e2e.mjs OUTDIR WRONG_SQL RIGHT_SQL LANG=URL…');
  process.exit(2);
}
// What each language asks, and what its page says.
const said = {
  en: { count: 'How many tracks are there?', wrong: 'Which track sold best?', like: 'Which tracks sold the most?', approved: 'Approved', corrected: 'Corrected', learned: /Learned from \d+ verified answers?/ },
  fr: { count: 'Combien de morceaux y a-t-il ?', wrong: 'Quel morceau s’est le mieux vendu ?', like: 'Quels morceaux se sont le mieux vendus ?', approved: 'Approuvée', corrected: 'Corrigée', learned: /Appris d(e \d+|’une) réponses? vérifiées?/ },
  zh: { count: '有多少首曲目？', wrong: '哪首曲目卖得最好？', like: '哪些曲目卖得最好？', approved: '已批准', corrected: '已更正', learned: /参考了 \d+ 个已核实的回答/ },
};
mkdirSync(outDir, { recursive: true });
const tid = (id) => `[data-testid="${id}"]`;
let step = 'starting';
function check(cond, message) {
  if (!cond) throw new Error(`${step}: ${message}`);
}
function log(msg) {
  console.error(`e2e verified: ${msg}`);
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
    const shot = async (name) => {
      await page.waitForTimeout(200);
      await page.screenshot({ path: join(outDir, `${name}-${lang}.png`), fullPage: true });
      log(`screenshot ${name}-${lang}.png`);
    };
    const lastCard = () => page.locator(tid('answer')).last();
    const answerId = () =>
      page.evaluate(() => [...document.querySelectorAll('[data-testid="answer"]')].at(-1)?.getAttribute('data-answer-id') ?? null);
    const waitNewAnswer = async (prev) => {
      await page.waitForFunction(
        (p) => {
          const a = [...document.querySelectorAll('[data-testid="answer"]')].at(-1);
          const id = a?.getAttribute('data-answer-id');
          return !!id && id !== p && !id.endsWith('.0');
        },
        prev,
        { timeout: 30000 },
      );
    };
    // ask asks q in a new conversation (a follow-up is never an example).
    const ask = async (q) => {
      if (await page.locator(tid('new-conversation')).count()) await page.click(tid('new-conversation'));
      const prev = await answerId();
      await page.fill(tid('question-input'), q);
      await page.press(tid('question-input'), 'Enter');
      await waitNewAnswer(prev);
      await page.waitForFunction(() => !document.querySelector('[data-testid="card-cancel"]'), null, { timeout: 30000 });
    };
    const setEditorSQL = async (sql) => {
      const ed = lastCard().locator(`${tid('sql-editor')}[data-ready="true"]`);
      await ed.waitFor();
      await ed.locator('.cm-content').click();
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.insertText(sql);
    };

    step = `${lang}: open`;
    await page.goto(url);
    await page.locator(`${tid('question-input')}:not([disabled])`).waitFor();

    step = `${lang}: approve`;
    await ask(w.count);
    await lastCard().locator(tid('approve')).click();
    await lastCard().locator(tid('verdict')).waitFor();
    check((await lastCard().locator(tid('verdict')).innerText()).includes(w.approved), `the card does not say ${w.approved}`);
    await shot('verified-approved');

    step = `${lang}: a correction that does not compile`;
    await ask(w.wrong);
    check((await lastCard().locator(tid('approve')).count()) === 1, 'no ✓ Right on a fresh answer');
    await setEditorSQL(rightSQL.replace('Quantity', 'Quantiti'));
    await lastCard().locator(tid('correct')).click();
    await page.locator(tid('error-banner')).waitFor();
    const banner = await page.locator(tid('error-banner')).innerText();
    check(banner.includes('Quantity'), `the banner does not name the closest column: ${banner}`);
    log(`${lang} refusal: ${banner.replace(/\s+/g, ' ').slice(0, 160)}`);
    check(!(await lastCard().locator(tid('result-grid')).innerText()).includes('Balls to the Wall'), 'a refused correction changed the card');
    check((await lastCard().locator(tid('verdict')).count()) === 0, 'a refused correction shows a verdict');
    await shot('verified-refused');

    step = `${lang}: correct`;
    const prev = await answerId();
    await setEditorSQL(rightSQL);
    await lastCard().locator(tid('correct')).click();
    await waitNewAnswer(prev);
    await lastCard().locator(tid('verdict')).waitFor();
    const grid = await lastCard().locator(tid('result-grid')).innerText();
    check(grid.includes('Balls to the Wall'), `the corrected result is not in the card: ${grid.slice(0, 200)}`);
    check((await lastCard().locator(tid('verdict')).innerText()).includes(w.corrected), `the card does not say ${w.corrected}`);
    check((await page.locator(tid('error-banner')).count()) === 0, 'the refusal is still shown after the correction');
    await shot('verified-corrected');

    step = `${lang}: a like question`;
    await ask(w.like);
    await lastCard().locator(tid('examples-used')).waitFor();
    const pill = await lastCard().locator(tid('examples-used')).innerText();
    check(w.learned.test(pill), `the pill: ${pill}`);
    await shot('verified-examples');
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
  console.error(`e2e verified FAILED: ${failed.message}`);
  process.exit(1);
}
