import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';

// The page is embedded in the Go binaries (frontend/embed.go) and served
// from / in the browser mode and from Wails' asset server on the desktop:
// relative asset paths work in both, and nothing is fetched from a network.
export default defineConfig({
  base: './',
  plugins: [svelte()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 800,
    modulePreload: { polyfill: false },
  },
  server: {
    // `npm run dev` against `querent serve --addr 127.0.0.1:8765`.
    proxy: {
      '/call': 'http://127.0.0.1:8765',
      '/events': 'http://127.0.0.1:8765',
      '/files': 'http://127.0.0.1:8765',
    },
  },
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
  },
});
