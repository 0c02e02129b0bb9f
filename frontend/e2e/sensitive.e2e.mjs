#!/usr/bin/env node
// End-to-end check of sensitive columns in a real browser (Debian's
// Chromium through playwright-core): issue 28.
//
//   node e2e/sensitive.e2e.mjs OUTDIR LANG=URL…
//
// Each URL is a `querent serve` address on its own copy of Chinook whose
// Customer.Email is marked sensitive (app/web/sensitive_e2e_test.go). The
// analyst's SQL shows the values, with the mark on Email and on a column
// computed from it; the export dialog offers to include them; a CSV
// without it has [masked], with it the values. Screenshots go to OUTDIR
// (sensitive-*-LANG.png); a failed check exits 1.
import { chromium } from 'playwright-core';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [outDir, ...servers] = process.argv.slice(2);
if (!outDir || servers.length === 0) {
  console.error('usage: node e2e/sensitive.e2e.mjs OUTDIR LANG=URL…');
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });
const tid = (id) => `[data-testid="${id}"]`;
let step = 'starting';
function check(cond, message) {
  if (!cond) throw new Error(`${step}: ${message}`);
}
const SAID = { en: /shown to you only/, fr: /montrée à vous seul/, zh: /仅向您显示/ };
const SQL = 'SELECT FirstName, Email, lower(Email) AS m FROM Customer ORDER BY CustomerId LIMIT 3';

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
  for (const server of servers) {
    const [lang, url] = [server.slice(0, server.indexOf('=')), server.slice(server.indexOf('=') + 1)];
    const page = await context.newPage();
    const pageErrors = [];
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    const shot = async (name) => {
      await page.waitForTimeout(200);
      await page.screenshot({ path: join(outDir, `sensitive-${name}-${lang}.png`) });
    };

    step = `${lang}: the likely columns are offered on open, the marked one not`;
    await page.goto(url);
    await page.locator(`${tid('question-input')}:not([disabled])`).waitFor();
    const offer = page.locator(tid('sensitive-offer'));
    await offer.waitFor();
    const offered = await offer.innerText();
    check(offered.includes('Customer.Phone') && !offered.includes('Customer.Email'), `the offer: ${offered}`);
    await shot('offer');
    await page.click(tid('sensitive-not-now'));
    await offer.waitFor({ state: 'detached' });

    await page.fill(tid('question-input'), SQL);
    await page.press(tid('question-input'), 'Enter');
    const card = page.locator(tid('answer')).last();
    await card.locator(tid('grid-row')).first().waitFor({ timeout: 30000 });
    const marks = card.locator(tid('grid-sensitive'));
    check((await marks.count()) === 2, `${await marks.count()} columns marked, want Email and m`);
    const title = await marks.first().getAttribute('title');
    check(SAID[lang].test(title ?? ''), `the mark says what it means (${lang}): ${title}`);
    const row = await card.locator(tid('grid-row')).first().innerText();
    check(row.includes('luisg@embraer.com.br'), `the analyst sees the value: ${row}`);
    await shot('grid');

    for (const include of [false, true]) {
      step = `${lang}: export ${include ? 'with' : 'without'} the sensitive values`;
      await card.locator(tid('export-button')).click();
      await page.locator(tid('export-dialog')).waitFor();
      check(await page.locator(tid('export-include-sensitive')).isVisible(), 'the export offers to include the sensitive columns');
      check(!(await page.locator(tid('export-include-sensitive')).isChecked()), 'the sensitive columns are included unasked');
      if (include) await page.check(tid('export-include-sensitive'));
      await page.check(tid('export-format-csv'));
      if (!include) await shot('export');
      const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30000 }), page.click(tid('export-confirm'))]);
      const path = join(outDir, `sensitive-${include ? 'full' : 'masked'}-${lang}.csv`);
      await download.saveAs(path);
      const text = readFileSync(path, 'utf8');
      if (include) {
        check(text.includes('luisg@embraer.com.br') && !text.includes('[masked]'), `with the values: ${text.slice(0, 200)}`);
      } else {
        check(text.includes('[masked]') && !text.includes('@'), `masked: ${text.slice(0, 200)}`);
        await page.locator(tid('export-done')).waitFor();
        const done = await page.locator(tid('export-done')).innerText();
        check(/Email/.test(done), `the report names the masked columns: ${done}`);
      }
      await page.locator(tid('export-done')).waitFor();
      await page.click(tid('export-close'));
      await page.locator(tid('export-dialog')).waitFor({ state: 'detached' });
    }
    step = `${lang}: unmark in the schema view, then mark what is offered`;
    await page.click(tid('schema-expand-Customer'));
    const lock = page.locator(`${tid('schema-sensitive')}[data-column="Customer.Email"]`);
    check((await lock.getAttribute('aria-pressed')) === 'true', 'Customer.Email is not shown marked in the schema view');
    await lock.click();
    await page.waitForFunction(() => document.querySelector('[data-testid="schema-sensitive"][data-column="Customer.Email"]')?.getAttribute('aria-pressed') === 'false');
    await page.fill(tid('question-input'), SQL);
    await page.press(tid('question-input'), 'Enter');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="answer"]').length >= 2);
    const again = page.locator(tid('answer')).last();
    await again.locator(tid('grid-row')).first().waitFor({ timeout: 30000 });
    check((await again.locator(tid('grid-sensitive')).count()) === 0, 'an unmarked column still carries the mark');
    await lock.click();
    await page.waitForFunction(() => document.querySelector('[data-testid="schema-sensitive"][data-column="Customer.Email"]')?.getAttribute('aria-pressed') === 'true');
    await shot('schema');
    check(pageErrors.length === 0, `page errors: ${pageErrors.join('; ')}`);
    await page.close();
  }
} catch (e) {
  failed = e;
} finally {
  if (context) await context.close();
  rmSync(userDataDir, { recursive: true, force: true });
}
if (failed) {
  console.error(`e2e sensitive: FAILED: ${failed.message}`);
  process.exit(1);
}
console.error('e2e sensitive: ok');
