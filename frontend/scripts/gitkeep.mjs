// Vite's emptyOutDir removes dist/.gitkeep on every build; the Go embed
// (frontend/embed.go, //go:embed all:dist) needs the folder in a clean
// checkout, so the build puts the file back.
import { writeFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
mkdirSync(dist, { recursive: true });
writeFileSync(dist + '.gitkeep', '');
