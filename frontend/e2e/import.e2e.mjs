#!/usr/bin/env node
// End-to-end check of the import dialog in a real browser (Debian's
// Chromium through playwright-core), kept apart from app.e2e.mjs.
//
//   node e2e/import.e2e.mjs URL OUTDIR MESSY_DIR
//
// URL is a `querent serve` address (token included) with nothing open;
// MESSY_DIR the shared messy files (csv/, xlsx/). The script previews
// 538_cabinet-turnover.csv (the detected types and reasons, the first rows),
// chooses start_date as a date with bad values stored as NULL, renames a
// column, leaves one out, checks that nothing was written before Import,
// imports and reads the report; previews a workbook with a cell range on one
// sheet; previews a generated 40 MB CSV (a sample) and cancels its import,
// which leaves nothing behind. Screenshots go to OUTDIR (import-*.png); a
// failed check exits 1 with its message.
import { chromium } from 'playwright-core';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [url, outDir, messyDir] = process.argv.slice(2);
if (!url || !outDir || !messyDir) {
  console.error('usage: node e2e/import.e2e.mjs URL OUTDIR MESSY_DIR');
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });
const tid = (id) => `[data-testid="${id}"]`;
let step = 'starting';
function check(cond, message) {
  if (!cond) throw new Error(`${step}: ${message}`);
}
function log(msg) {
  console.error(`e2e import: ${msg}`);
}

const work = mkdtempSync(join(tmpdir(), 'querent-e2e-import-'));
const userDataDir = mkdtempSync(join(tmpdir(), 'querent-e2e-chromium-'));
const cabinet = join(messyDir, 'csv', '538_cabinet-turnover.csv');
const pollster = join(messyDir, 'xlsx', '538_pollster-stats-full_2019.xlsx');
let context;
let failed = null;

// A large CSV: its preview is a sample, its import takes long enough to cancel.
function writeBig(path, rows) {
  writeFileSync(path, 'id,name,amount,day,flag\n');
  let chunk = '';
  for (let i = 1; i <= rows; i++) {
    chunk += `${i},customer ${i % 997},${(i % 5000) / 100},2024-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')},${i % 2 ? 'yes' : 'no'}\n`;
    if (chunk.length > 1 << 20) {
      appendFileSync(path, chunk);
      chunk = '';
    }
  }
  appendFileSync(path, chunk);
}

try {
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    viewport: { width: 1360, height: 900 },
    colorScheme: 'light',
  });
  context.setDefaultTimeout(20000);
  const page = await context.newPage();
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  const shot = async (name) => {
    await page.waitForTimeout(200);
    await page.screenshot({ path: join(outDir, `${name}.png`), fullPage: false });
    log(`screenshot ${name}.png`);
  };
  // settled waits until the preview is not updating (and the debounce passed).
  const settled = async () => {
    await page.waitForTimeout(400);
    await page.waitForFunction(() => {
      const p = document.querySelector('[data-testid="import-preview"]');
      return p && p.getAttribute('aria-busy') !== 'true';
    });
  };
  const col = (n) => page.locator(`${tid(`import-col-${n}`)}`);

  // The import dialog: from the start screen, or (a database open) from
  // the top bar's "open another".
  const openImport = async () => {
    await page.locator(`${tid('import-button')}, ${tid('open-button')}`).first().waitFor();
    if (!(await page.locator(tid('import-button')).isVisible())) await page.click(tid('open-button'));
    await page.locator(tid('import-button')).click();
    await page.locator(tid('import-dialog')).waitFor();
  };

  step = 'open the import dialog';
  await page.goto(url);
  await openImport();

  step = 'preview a messy CSV';
  const t0 = Date.now();
  await page.fill(tid('import-inputs'), cabinet);
  await page.locator(tid('preview-table')).waitFor();
  await settled();
  log(`preview shown after ${Date.now() - t0} ms`);
  const sd = col(4);
  check((await sd.innerText()).includes('start_date'), 'column 4 is start_date');
  const reason = await sd.locator('.why').innerText();
  check(reason.includes('371 of 379 values are dates'), `start_date's reason says how many values disagree: ${reason}`);
  check(await sd.locator(tid('import-col-suggest')).isVisible(), 'start_date suggests DATE');
  check((await col(9).innerText()).includes('no header and no values'), 'the empty column 9 is left out, saying why');
  const firstRow = await page.locator(`${tid('preview-table')} tbody tr`).first().innerText();
  check(firstRow.includes('Carter') && firstRow.includes('1/21/77'), `the first row as stored: ${firstRow}`);
  check((await page.locator(`${tid('preview-table')} tbody tr`).count()) === 50, 'the preview shows 50 rows');
  await shot('import-preview');

  step = 'choose types, names and what bad values become';
  await sd.locator(tid('import-col-type')).selectOption('date');
  await settled();
  check((await sd.locator(tid('import-col-bad')).innerText()).includes('8 do not fit DATE'), 'DATE with the policy text: 8 values do not fit');
  check((await sd.locator('.why').innerText()).includes('kept as text'), 'the column stays text with the policy text');
  await sd.locator(tid('import-col-onbad')).selectOption('null');
  await settled();
  check((await sd.locator(tid('import-col-bad')).innerText()).includes('8 bad → NULL'), 'the bad values become NULL');
  const row1 = await page.locator(`${tid('preview-table')} tbody tr`).first().innerText();
  check(row1.includes('1977-01-21'), `start_date is stored as a date in the preview: ${row1}`);
  await col(6).locator(tid('import-col-name')).fill('days');
  await col(6).locator(tid('import-col-name')).press('Enter');
  await col(8).locator(tid('import-col-skip')).check();
  await page.fill(tid('import-table-name'), 'cabinet');
  await page.press(tid('import-table-name'), 'Enter');
  await settled();
  check((await col(8).getAttribute('class')).includes('skipped'), 'gender is left out');
  check((await page.locator(tid('import-table-name')).inputValue()) === 'cabinet', 'the table is named cabinet');
  // The end_date suggestion in one click.
  await col(5).locator(tid('import-col-suggest')).click();
  await settled();
  check((await col(5).locator(tid('import-col-bad')).innerText()).includes('32 bad → NULL'), 'end_date: 32 bad values → NULL');
  await shot('import-choices');

  step = 'nothing is written before Import';
  const target = join(work, 'cabinet.sqlite');
  await page.fill(tid('import-target'), target);
  await settled();
  check((await page.locator(tid('import-action')).innerText()).includes('new table'), 'the plan says a new table is created');
  await page.waitForTimeout(500);
  check(!existsSync(target), 'the preview wrote the database');
  check(readdirSync(work).length === 0, `the preview wrote into the folder: ${readdirSync(work)}`);

  step = 'a problem keeps Import off, and the footer says so';
  await sd.locator(tid('import-col-onbad')).selectOption('error');
  await settled();
  await page.locator(tid('import-blocked')).waitFor();
  check(await page.locator(tid('import-start')).isDisabled(), 'Import is on with a value that does not fit');
  check(/problem/.test(await page.locator(tid('import-blocked')).innerText()), 'the footer does not say why Import is off');
  await page.click(tid('import-blocked'));
  await page.waitForTimeout(600);
  check(await page.locator(tid('import-plan-error')).first().isVisible(), 'the link does not bring the problem into view');
  await shot('import-blocked');
  await sd.locator(tid('import-col-onbad')).selectOption('null');
  await settled();
  check((await page.locator(tid('import-blocked')).count()) === 0, 'the footer still says Import is off');

  step = 'import and read the report';
  await page.click(tid('import-start'));
  await page.locator(tid('import-report')).waitFor();
  const rep = await page.locator(tid('import-report')).innerText();
  check(rep.includes('cabinet') && rep.includes('379 rows'), `the report names the table: ${rep.slice(0, 200)}`);
  check(rep.includes('40 bad values stored as NULL'), 'the report counts the bad values');
  check(rep.includes('left out') && rep.includes('skipped by the analyst'), 'the report says what was left out');
  check(rep.includes('8 values that are not, stored as NULL'), "start_date's reason in the report");
  check(existsSync(target), 'the database exists after Import');
  await shot('import-report');
  await page.click(tid('import-close'));
  await page.locator(tid('import-dialog')).waitFor({ state: 'detached' });

  step = 'preview a workbook with a cell range';
  await openImport();
  await page.fill(tid('import-inputs'), pollster);
  await page.locator(tid('preview-table')).waitFor();
  await settled();
  check((await page.locator(tid('import-tab')).count()) === 2, 'two sheets, two tables');
  check((await page.locator(tid('preview-table')).innerText()).includes('Pollster'), 'the Results sheet');
  await page.fill(tid('import-range'), 'B2:E50');
  await page.press(tid('import-range'), 'Enter');
  await settled();
  check((await page.locator(`${tid('preview-table')} thead th`).count()) === 4, 'four columns in B2:E50');
  check((await page.locator(`${tid('preview-table')} tbody tr`).count()) === 48, '48 rows in B2:E50');
  check((await col(5).innerText()).includes('NCPP'), 'column E is NCPP / AAPOR / Roper');
  await shot('import-xlsx-range');
  await page.locator(tid('import-tab')).nth(1).click();
  check((await page.locator(tid('preview-table')).innerText()).includes('Column Name'), 'the second sheet');
  await page.locator(tid('import-table-keep')).uncheck();
  await settled();
  check((await page.locator(tid('import-tab')).nth(1).innerText()).includes('left out'), 'the second sheet is left out');

  step = 'a large file: a sample, then a cancelled import';
  const big = join(work, 'big.csv');
  writeBig(big, 2_000_000);
  const bigTarget = join(work, 'big.sqlite');
  await page.fill(tid('import-inputs'), big);
  await page.fill(tid('import-target'), bigTarget);
  const t1 = Date.now();
  await page.locator(tid('import-sampled')).waitFor();
  await settled();
  log(`preview of a large file shown after ${Date.now() - t1} ms`);
  check((await page.locator(tid('import-sampled')).innerText()).includes('A sample'), 'the preview says it is a sample');
  await shot('import-sampled');
  await page.click(tid('import-start'));
  await page.locator(tid('import-cancel')).waitFor();
  await page.click(tid('import-cancel'));
  await page.locator(tid('import-cancelled')).waitFor({ timeout: 30000 });
  await page.waitForTimeout(300);
  check(!existsSync(bigTarget), 'the cancelled import left the database');
  const left = readdirSync(work).filter((f) => f !== 'big.csv' && f !== 'cabinet.sqlite');
  check(left.length === 0, `the cancelled import left ${left}`);
  await page.locator(tid('import-cancelled')).scrollIntoViewIfNeeded();
  await shot('import-cancelled');
  check(pageErrors.length === 0, `errors in the page: ${pageErrors}`);
  log('all import checks passed');
} catch (e) {
  failed = e;
} finally {
  if (context) await context.close().catch(() => {});
  rmSync(userDataDir, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
}
if (failed) {
  console.error(`e2e import: FAILED: ${failed.message}`);
  process.exit(1);
}
