#!/usr/bin/env node
// End-to-end check of an OpenAI-compatible model server in a real browser
// (Debian's Chromium through playwright-core).
//
//   OPENAI_URL=… OPENAI_KEY=… node e2e/openai.e2e.mjs URL OUTDIR
//
// URL is a `querent serve` address (token included) on the demo database
// whose Ollama is down; OPENAI_URL is a scripted OpenAI-compatible fake
// (app/web/openai_e2e_test.go) that wants the key OPENAI_KEY and answers
// every question with the count of tracks. The script chooses that server
// in Settings (its address and key), sees the model panel speak of it,
// list its models and offer no download, asks a question and sees the
// rows, then opens Settings again: the key is not in the page, only that
// one is saved.
// Screenshots go to OUTDIR (openai-*.png); a failed check exits 1.
import { chromium } from 'playwright-core';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [url, outDir] = process.argv.slice(2);
const server = process.env.OPENAI_URL;
const key = process.env.OPENAI_KEY;
if (!url || !outDir || !server || !key) {
  console.error('usage: OPENAI_URL=… OPENAI_KEY=… node e2e/openai.e2e.mjs URL OUTDIR');
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });
const tid = (id) => `[data-testid="${id}"]`;
let step = 'starting';
function check(cond, message) {
  if (!cond) throw new Error(`${step}: ${message}`);
}

const userDataDir = mkdtempSync(join(tmpdir(), 'querent-e2e-chromium-'));
let context;
let failed = null;
try {
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    viewport: { width: 1280, height: 900 },
    colorScheme: 'light',
  });
  context.setDefaultTimeout(20000);
  const page = await context.newPage();
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  step = 'loading';
  await page.goto(url);
  await page.waitForSelector(tid('question-input'));
  await page.waitForSelector(`${tid('ollama-status')}[data-running="false"]`);

  step = 'choosing the server in Settings';
  await page.click(tid('settings-button'));
  await page.waitForSelector(tid('settings-dialog'));
  check((await page.locator(tid('settings-llm-url')).count()) === 0, 'the address field shows before the server is chosen');
  await page.selectOption(tid('settings-server'), 'openai');
  await page.fill(tid('settings-llm-url'), server);
  await page.fill(tid('settings-api-key'), key);
  check((await page.locator(tid('settings-api-key')).getAttribute('type')) === 'password', 'the key field is not a password field');
  await page.locator(tid('settings-dialog')).screenshot({ path: join(outDir, 'openai-settings.png') });
  await page.click(tid('settings-save'));
  await page.waitForSelector(tid('settings-dialog'), { state: 'detached' });
  await page.waitForSelector(`${tid('ollama-status')}[data-running="true"]`);

  step = 'the model panel';
  await page.click(tid('ollama-status'));
  await page.waitForSelector(tid('model-picker'));
  const panel = await page.locator(tid('ollama-panel')).innerText();
  check(panel.includes('Connected to the OpenAI-compatible server at ' + server), `the panel says: ${panel.slice(0, 300)}`);
  check(!panel.includes('Connected to Ollama'), 'the panel speaks of Ollama');
  const options = await page.locator(`${tid('model-picker')} option`).allInnerTexts();
  check(options.some((o) => o.includes('qwen2.5-coder-7b-instruct')) && options.some((o) => o.includes('llama-3.2-3b-instruct')), `the picker lists ${options.join(', ')}`);
  check((await page.locator(tid('pull-model')).count()) === 0, 'the panel offers a download');
  await page.locator(tid('ollama-panel')).screenshot({ path: join(outDir, 'openai-panel.png') });
  await page.keyboard.press('Escape');
  await page.waitForSelector(tid('ollama-panel'), { state: 'detached' });

  step = 'asking';
  await page.fill(tid('question-input'), 'How many tracks are there?');
  await page.press(tid('question-input'), 'Enter');
  const card = page.locator(tid('answer')).last();
  await card.locator(tid('result-grid')).waitFor();
  await page.waitForFunction(() => /3[ ,.\u202f]?503/.test(document.querySelector('[data-testid="answer"] [data-testid="result-grid"]')?.textContent || ''));
  const text = await card.innerText();
  check(text.includes('qwen2.5-coder-7b-instruct'), `the card does not name the model: ${text.slice(0, 300)}`);
  await page.screenshot({ path: join(outDir, 'openai-answer.png') });

  step = 'the key stays out of the page';
  await page.click(tid('settings-button'));
  await page.waitForSelector(tid('settings-dialog'));
  check((await page.locator(tid('settings-server')).inputValue()) === 'openai', 'Settings forgot the server');
  check((await page.locator(tid('settings-llm-url')).inputValue()) === server, 'Settings forgot the address');
  check((await page.locator(tid('settings-api-key')).inputValue()) === '', 'the key field is filled');
  const placeholder = await page.locator(tid('settings-api-key')).getAttribute('placeholder');
  check(placeholder?.includes('A key is saved'), `the key field's placeholder is "${placeholder}"`);
  check((await page.locator(tid('settings-forget-key')).count()) === 1, 'no way to forget the key');
  const html = await page.content();
  check(!html.includes(key), 'the page holds the API key');
  await page.locator(tid('settings-dialog')).screenshot({ path: join(outDir, 'openai-settings-saved.png') });
  check(pageErrors.length === 0, `page errors: ${pageErrors.join('; ')}`);
} catch (e) {
  failed = e;
} finally {
  await context?.close();
  rmSync(userDataDir, { recursive: true, force: true });
}
if (failed) {
  console.error(`e2e openai: ${failed.message}`);
  process.exit(1);
}
console.error('e2e openai: ok');
