import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The operator console: built by `npm run build` into dist/console, served by the service at /console.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/console/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/console', import.meta.url)),
    emptyOutDir: true,
    // Every script and style is a file (the console's CSP has no 'unsafe-inline').
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
  },
});
