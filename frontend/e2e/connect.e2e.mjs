#!/usr/bin/env node
// End-to-end check of "Connect to PostgreSQL" in a real browser (Debian's
// Chromium through playwright-core), kept apart from app.e2e.mjs.
//
//   PG_HOST=… PG_PORT=… PG_DATABASE=… PG_READER=… PG_READER_PASSWORD=… \
//   PG_SUPER=… PG_SUPER_PASSWORD=… node e2e/connect.e2e.mjs URL OUTDIR
//
// URL is a `querent serve` address (token included) with nothing open; the
// PG_* variables name a PostgreSQL server with Chinook, a SELECT-only role
// and a superuser (app/web/connect_e2e_test.go starts one). The script
// tests the read-only role (its facts), connects and saves the connection,
// reads the tables and runs SQL on the server; stops a test that hangs on a
// silent server; sees the superuser refused by default (the engine's
// reason, and where to allow it), allows it from the refusal's Settings and
// comes back to the form, then tests and connects as the superuser (its
// warning, in the dialog and over the answers); turns on "Refuse PostgreSQL
// roles that may write" and sees the superuser refused again; picks the
// saved connection (no password); and checks that no password is anywhere
// in the page.
// Screenshots go to OUTDIR (connect-*.png); a failed check exits 1.
import { chromium } from 'playwright-core';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [url, outDir] = process.argv.slice(2);
const env = (k) => {
  const v = process.env[k];
  if (!v) {
    console.error(`connect.e2e.mjs: ${k} is not set`);
    process.exit(2);
  }
  return v;
};
if (!url || !outDir) {
  console.error('usage: PG_…=… node e2e/connect.e2e.mjs URL OUTDIR');
  process.exit(2);
}
const pg = {
  host: env('PG_HOST'),
  port: env('PG_PORT'),
  database: env('PG_DATABASE'),
  reader: env('PG_READER'),
  readerPassword: env('PG_READER_PASSWORD'),
  superuser: env('PG_SUPER'),
  superPassword: env('PG_SUPER_PASSWORD'),
};
mkdirSync(outDir, { recursive: true });
const tid = (id) => `[data-testid="${id}"]`;
let step = 'starting';
function check(cond, message) {
  if (!cond) throw new Error(`${step}: ${message}`);
}
function log(msg) {
  console.error(`e2e connect: ${msg}`);
}
function metric(name, value, unit) {
  console.log(JSON.stringify({ metric: name, value, unit, budget: null, ok: true }));
}

// A server that accepts connections and never answers: a test against it
// waits until Stop.
const silent = createServer(() => {});
await new Promise((r) => silent.listen(0, '127.0.0.1', r));
const silentPort = silent.address().port;

const userDataDir = mkdtempSync(join(tmpdir(), 'querent-e2e-chromium-'));
let context;
let page;
let failed = null;
try {
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--lang=en-US'],
    viewport: { width: 1280, height: 860 },
    colorScheme: 'light',
    locale: 'en-US',
  });
  context.setDefaultTimeout(20000);
  page = await context.newPage();
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  const shot = async (name) => {
    await page.waitForTimeout(200);
    await page.screenshot({ path: join(outDir, `${name}.png`), fullPage: false });
    log(`screenshot ${name}.png`);
  };
  // The page must never hold a password: not in its markup, not in a field
  // (but the password field of an open dialog, where it was typed).
  const noPassword = async (where) => {
    const found = await page.evaluate((pws) => {
      const html = document.documentElement.outerHTML;
      const values = [...document.querySelectorAll('input:not([type="password"]), textarea, select')].map((e) => e.value);
      const stored = JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage });
      return pws.filter((pw) => html.includes(pw) || values.some((v) => v.includes(pw)) || stored.includes(pw));
    }, [pg.readerPassword, pg.superPassword]);
    check(found.length === 0, `a password is in the page ${where}`);
  };
  const openDialog = async () => {
    await page.locator(`${tid('connect-button')}, ${tid('open-button')}`).first().waitFor();
    if (!(await page.locator(tid('connect-button')).isVisible())) {
      await page.click(tid('open-button'));
    }
    await page.click(tid('connect-button'));
    await page.locator(tid('connect-dialog')).waitFor();
  };
  const fill = async (user, password, { port = pg.port } = {}) => {
    await page.fill(tid('connect-host'), pg.host);
    await page.fill(tid('connect-port'), String(port));
    await page.fill(tid('connect-database'), pg.database);
    await page.fill(tid('connect-user'), user);
    await page.fill(tid('connect-password'), password);
  };

  step = 'the start screen';
  await page.goto(url);
  await page.locator(tid('connect-button')).waitFor();

  step = 'Test connection as the SELECT-only role';
  await openDialog();
  check((await page.getAttribute(tid('connect-password'), 'type')) === 'password', 'the password field should hide what is typed');
  check((await page.inputValue(tid('connect-port'))) === '5432', 'the port should default to 5432');
  await fill(pg.reader, pg.readerPassword);
  let t0 = Date.now();
  await page.click(tid('connect-test-button'));
  await page.locator(tid('connect-test')).waitFor();
  metric('connect: Test connection (read-only role)', Date.now() - t0, 'ms');
  const role = await page.locator(tid('connect-fact-role')).innerText();
  check(role === pg.reader, `the role should be ${pg.reader}, got ${role}`);
  const version = await page.locator(tid('connect-fact-server-version')).innerText();
  check(/^PostgreSQL \d+/.test(version), `the server's version: ${version}`);
  const server = await page.locator(tid('connect-fact-server')).innerText();
  check(server.includes(pg.port), `the server should name its port: ${server}`);
  const readable = await page.locator(tid('connect-readable')).innerText();
  check(/11 tables/.test(readable), `Chinook's 11 tables should be counted: ${readable}`);
  check(await page.locator(tid('connect-readonly')).isVisible(), 'a SELECT-only role should be said to be read-only');
  check((await page.locator(tid('connect-warning')).count()) === 0, 'a SELECT-only role should have no warning');
  await noPassword('after a test');
  await shot('connect-test');

  step = 'Connect, saving the connection';
  await page.check(tid('connect-save'));
  await page.fill(tid('connect-name'), 'Chinook (reader)');
  t0 = Date.now();
  await page.click(tid('connect-submit'));
  await page.locator(tid('connect-dialog')).waitFor({ state: 'detached' });
  await page.locator(tid('postgres-badge')).waitFor();
  metric('connect: Connect to a usable question box', Date.now() - t0, 'ms');
  check((await page.locator(tid('title')).innerText()) === pg.database, 'the top bar should name the database');
  const shown = await page.locator(tid('server-name')).innerText();
  check(shown === `${pg.reader}@${pg.host}:${pg.port}/${pg.database}`, `the server as shown: ${shown}`);
  check(await page.locator(tid('readonly-badge')).isVisible(), 'the read-only badge');
  check((await page.locator(tid('role-warning')).count()) === 0, 'a SELECT-only role has no warning over the answers');
  await page.locator(tid('schema-expand-artist')).waitFor();
  check((await page.locator(tid('schema-expand-invoice_line')).count()) === 1, 'the sidebar should list invoice_line');

  step = 'SQL on the server';
  await page.fill(tid('question-input'), 'SELECT name FROM artist ORDER BY artist_id LIMIT 5');
  await page.press(tid('question-input'), 'Enter');
  await page.locator(tid('grid-row')).first().waitFor();
  const first = await page.locator(tid('grid-row')).first().locator('[role="gridcell"]').first().innerText();
  check(first.trim() === 'AC/DC', `the first artist should be AC/DC, got ${first}`);
  check((await page.locator(tid('grid-row')).count()) === 5, 'five rows');
  await noPassword('once connected');
  await shot('connect-open');

  step = 'Stop a test that waits on a silent server';
  await openDialog();
  check((await page.inputValue(tid('connect-password'))) === '', 'the password should not be kept once connected');
  await fill(pg.reader, pg.readerPassword, { port: silentPort });
  await page.click(tid('connect-test-button'));
  await page.locator(tid('connect-running')).waitFor();
  await page.waitForTimeout(300);
  t0 = Date.now();
  await page.click(tid('connect-stop'));
  await page.locator(tid('connect-stopped')).waitFor();
  metric('connect: Stop a waiting test', Date.now() - t0, 'ms');
  check(Date.now() - t0 < 3000, 'Stop should end the test at once');

  step = 'Test connection as the superuser: refused unless Settings allow it';
  const banner = `${tid('connect-dialog')} ${tid('error-banner')}`;
  await fill(pg.superuser, pg.superPassword);
  await page.click(tid('connect-test-button'));
  await page.locator(banner).waitFor();
  const why = await page.locator(`${banner} ${tid('error-title')}`).innerText();
  check(/is a superuser/.test(why) && /unless Settings allow it/.test(why), `the refusal should say why: ${why}`);
  const reason = await page.locator(`${banner} ${tid('error-body')}`).innerText();
  check(/the role postgres is a superuser/.test(reason), `the engine's reason should be shown: ${reason}`);
  check((await page.locator(banner).innerText()).includes('“Allow superusers (not recommended)” in Settings'), 'the refusal should say where to allow it');
  check(await page.locator(`${banner} ${tid('error-action-open-settings')}`).isVisible(), 'the refusal should offer Settings');
  check((await page.locator(tid('connect-test')).count()) === 0, 'a refused role has no test result');
  await noPassword('after the superuser is refused');
  await shot('connect-superuser-refused');

  step = 'Connect as the superuser: refused too, the open database kept';
  await page.click(tid('connect-submit'));
  await page.waitForFunction((sel) => !document.querySelector(sel), tid('connect-running'));
  await page.locator(banner).waitFor();
  check(/is a superuser/.test(await page.locator(`${banner} ${tid('error-title')}`).innerText()), 'Connect should be refused the same way');
  check(await page.locator(tid('connect-dialog')).isVisible(), 'the dialog stays open');
  const still = await page.locator(tid('server-name')).innerText();
  check(still === `${pg.reader}@${pg.host}:${pg.port}/${pg.database}`, `the reader's database should stay open: ${still}`);

  step = "Settings, from the refusal: allow superusers, and back to the form";
  await page.click(`${banner} ${tid('error-action-open-settings')}`);
  await page.locator(tid('settings-dialog')).waitFor();
  check(!(await page.isChecked(tid('settings-allow-superuser'))), 'superusers should not be allowed by default');
  check(!(await page.isChecked(tid('settings-readonly-role'))), 'roles that may write are not refused by default');
  await page.check(tid('settings-allow-superuser'));
  await shot('connect-settings-superuser');
  await page.click(tid('settings-save'));
  await page.locator(tid('settings-dialog')).waitFor({ state: 'detached' });
  await page.locator(tid('connect-dialog')).waitFor();
  check((await page.inputValue(tid('connect-user'))) === pg.superuser, 'back in the dialog, the form should be as it was');
  check((await page.locator(banner).count()) === 0, 'the refusal, found under the old settings, should be gone');

  step = 'Test connection as the superuser, allowed: the warning';
  await page.click(tid('connect-test-button'));
  await page.locator(tid('connect-warning')).waitFor();
  const warning = await page.locator(tid('connect-warning')).innerText();
  check(/Superuser|superuser/.test(warning), `the superuser's warning: ${warning}`);
  check((await page.locator(tid('connect-fact-role')).innerText()) === pg.superuser, 'the role should be the superuser');
  await noPassword('after testing the superuser');
  await shot('connect-superuser-test');

  step = 'Connect as the superuser: the warning stays over the answers';
  await page.click(tid('connect-submit'));
  await page.locator(tid('connect-dialog')).waitFor({ state: 'detached' });
  await page.locator(tid('role-warning')).waitFor();
  check(/superuser/.test(await page.locator(tid('role-warning')).innerText()), 'the role warning should say superuser');
  await page.fill(tid('question-input'), 'SELECT count(*) AS tracks FROM track');
  await page.press(tid('question-input'), 'Enter');
  await page.locator(tid('grid-row')).first().waitFor();
  check(await page.locator(tid('role-warning')).isVisible(), 'the warning should stay visible with an answer on screen');
  await shot('connect-superuser');

  step = 'Settings: refuse roles that may write';
  await page.click(tid('settings-button'));
  await page.locator(tid('settings-dialog')).waitFor();
  await page.check(tid('settings-readonly-role'));
  await page.click(tid('settings-save'));
  await page.locator(tid('settings-dialog')).waitFor({ state: 'detached' });
  await openDialog();
  await fill(pg.superuser, pg.superPassword);
  await page.click(tid('connect-submit'));
  await page.locator(`${tid('connect-dialog')} ${tid('error-banner')}`).waitFor();
  const refused = await page.locator(`${tid('connect-dialog')} ${tid('error-title')}`).innerText();
  check(/more than read/.test(refused) && /read-only role/.test(refused), `the refusal should say why: ${refused}`);
  check(await page.locator(`${tid('connect-dialog')} ${tid('error-action-open-settings')}`).isVisible(), 'the refusal should offer Settings');
  await noPassword('after a refusal');
  await shot('connect-refused');

  step = 'the saved connection, without its password';
  await page.click(tid('connect-cancel'));
  await page.locator(tid('connect-dialog')).waitFor({ state: 'detached' });
  await openDialog();
  const saved = page.locator(tid('saved-connection'));
  check((await saved.count()) === 1, 'one saved connection');
  check((await saved.innerText()).includes('Chinook (reader)'), 'the saved connection by its name');
  check((await page.inputValue(tid('connect-password'))) === '', 'closing the dialog should forget the password');
  await saved.click();
  check((await page.inputValue(tid('connect-user'))) === pg.reader, 'picking fills the user');
  check((await page.inputValue(tid('connect-port'))) === pg.port, 'picking fills the port');
  check((await page.inputValue(tid('connect-password'))) === '', 'picking leaves the password to type');
  await shot('connect-saved');
  await page.fill(tid('connect-password'), pg.readerPassword);
  await page.click(tid('connect-submit'));
  await page.locator(tid('connect-dialog')).waitFor({ state: 'detached' });
  await page.locator(tid('postgres-badge')).waitFor();
  check((await page.locator(tid('role-warning')).count()) === 0, 'back on the reader: no warning');
  await noPassword('at the end');
  check(pageErrors.length === 0, `errors in the page: ${pageErrors.join('; ')}`);
  log('all checks passed');
} catch (e) {
  failed = e;
  try {
    if (page) await page.screenshot({ path: join(outDir, 'connect-failure.png') });
  } catch {
    // no screenshot
  }
} finally {
  await context?.close();
  silent.close();
  rmSync(userDataDir, { recursive: true, force: true });
}
if (failed) {
  console.error(`e2e connect FAILED: ${failed.message}`);
  process.exit(1);
}
