#!/usr/bin/env node
// End-to-end check of data files in a real browser (Debian's Chromium
// through playwright-core): issue 27.
//
//   node e2e/openfile.e2e.mjs OUTDIR FILES LANG=URL…
//
// Each URL is a `querent serve` address (token included) with nothing
// open, its page in LANG (app/web/openfile_e2e_test.go); FILES holds
// sales.parquet, customers.json and orders.csv. For each language: open
// sales.parquet by its path from the start screen — the first look shows
// the table "sales" — then import customers.json and orders.csv together
// into FILES/shop-LANG.sqlite (the preview flattens the JSON's address into
// address_city), open it, and the first look lists the join
// orders.customer_id → customers.id read from the values. Screenshots go to
// OUTDIR (openfile-*-LANG.png); a failed check exits 1.
import { chromium } from 'playwright-core';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [outDir, files, ...servers] = process.argv.slice(2);
if (!outDir || !files || servers.length === 0) {
  console.error('usage: node e2e/openfile.e2e.mjs OUTDIR FILES LANG=URL…');
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });
const tid = (id) => `[data-testid="${id}"]`;
let step = 'starting';
function check(cond, message) {
  if (!cond) throw new Error(`${step}: ${message}`);
}
// The word for a join read from the values, in each language.
const INFERRED = { en: /inferred|read from/i, fr: /déduite des valeurs/, zh: /由数值推断/ };

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
  context.setDefaultTimeout(30000);
  for (const server of servers) {
    const [lang, url] = [server.slice(0, server.indexOf('=')), server.slice(server.indexOf('=') + 1)];
    const page = await context.newPage();
    const pageErrors = [];
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    const shot = async (name) => {
      await page.waitForTimeout(200);
      await page.screenshot({ path: join(outDir, `openfile-${name}-${lang}.png`) });
    };

    step = `${lang}: open a Parquet file by its path`;
    await page.goto(url);
    await page.fill(tid('open-path'), join(files, 'sales.parquet'));
    await page.click(tid('open-path-button'));
    await page.waitForSelector(tid('start-view'));
    await page.waitForSelector(`${tid('start-table')}[data-table="sales"]`, { timeout: 60000 });
    const card = await page.locator(`${tid('start-table')}[data-table="sales"]`).innerText();
    check(card.includes('region') && card.includes('amount'), `the sales card lists its columns: ${card.slice(0, 200)}`);
    const title = await page.title();
    check(/sales\.parquet/.test(title), `the tab names the file, not a workspace: ${title}`);
    await shot('parquet');

    step = `${lang}: import a JSON file and a CSV together`;
    await page.click(tid('open-button'));
    await page.locator(tid('import-button')).click();
    await page.locator(tid('import-dialog')).waitFor();
    await page.fill(tid('import-inputs'), `${join(files, 'customers.json')}\n${join(files, 'orders.csv')}`);
    await page.locator(tid('preview-table')).waitFor();
    await page.waitForTimeout(400);
    await page.waitForFunction(() => document.querySelector('[data-testid="import-preview"]')?.getAttribute('aria-busy') !== 'true');
    check((await page.locator(tid('import-tab')).count()) === 2, 'two files, two tables');
    const preview = await page.locator(tid('preview-table')).innerText();
    const names = await page.$$eval(`${tid('preview-table')} [data-testid="import-col-name"]`, (els) => els.map((e) => e.value));
    check(names.includes('address_city') && preview.includes('address.city') && preview.includes('City 1'),
      `the JSON's nested address is a column address_city (from address.city): ${names.join(', ')}`);
    const how = await page.locator(tid('import-format')).first().innerText();
    check(/JSON/.test(how) && (await page.locator(tid('import-encoding')).count()) === 0,
      `a JSON file says how it is read, with no encoding or separator to choose: ${how}`);
    await shot('json-preview');
    const target = join(files, `shop-${lang}.sqlite`);
    await page.fill(tid('import-target'), target);
    await page.waitForTimeout(300);
    await page.click(tid('import-start'));
    await page.locator(tid('import-report')).waitFor({ timeout: 60000 });
    check(existsSync(target), 'the database exists after Import');
    await page.click(tid('import-close'));
    await page.locator(tid('import-dialog')).waitFor({ state: 'detached' });

    step = `${lang}: the join read from the values`;
    if (!(await page.locator(`${tid('start-table')}[data-table="orders"]`).isVisible())) {
      await page.click(tid('open-button'));
      await page.fill(tid('open-path'), target);
      await page.click(tid('open-path-button'));
    }
    await page.waitForSelector(tid('start-joins'), { timeout: 60000 });
    const joins = await page.locator(tid('start-joins')).innerText();
    check(joins.includes('orders.customer_id') && joins.includes('customers.id'), `the join is found: ${joins}`);
    check(INFERRED[lang].test(joins), `the join is said to be read from the values (${lang}): ${joins}`);
    await page.locator(tid('start-joins')).scrollIntoViewIfNeeded();
    await shot('joins');
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
  console.error(`e2e openfile: FAILED: ${failed.message}`);
  process.exit(1);
}
console.error('e2e openfile: ok');
