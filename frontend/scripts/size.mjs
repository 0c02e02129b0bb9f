// Prints the gzipped size of every built JS and CSS file and the JS total,
// and fails when the JS is over the budget (1 MB gzipped).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const BUDGET = 1024 * 1024;
const dist = fileURLToPath(new URL('../dist/', import.meta.url));

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

let files;
try {
  files = walk(dist).filter((f) => /\.(js|css)$/.test(f));
} catch {
  console.error('size: no dist/ folder: run `npm run build` first');
  process.exit(1);
}
if (files.length === 0) {
  console.error('size: dist/ holds no JS or CSS: run `npm run build` first');
  process.exit(1);
}
const kb = (n) => (n / 1024).toFixed(1).padStart(8) + ' KiB';
let jsRaw = 0;
let jsGz = 0;
for (const f of files.sort()) {
  const buf = readFileSync(f);
  const gz = gzipSync(buf, { level: 9 }).length;
  if (f.endsWith('.js')) {
    jsRaw += buf.length;
    jsGz += gz;
  }
  console.log(`${kb(buf.length)} raw ${kb(gz)} gz  ${relative(dist, f)}`);
}
console.log(`JS total: ${kb(jsRaw)} raw ${kb(jsGz)} gzipped (budget ${BUDGET / 1024} KiB)`);
console.log(JSON.stringify({ metric: 'bundle_js_gzip_bytes', value: jsGz, budget: BUDGET, ok: jsGz <= BUDGET }));
if (jsGz > BUDGET) {
  console.error(`size: the JS is ${jsGz} bytes gzipped, over the budget of ${BUDGET}`);
  process.exit(1);
}
