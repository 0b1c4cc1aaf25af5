import { defineConfig } from 'vite';

/** The web app: `src/web` → `dist/web`, served by Fastify at `/` (src/platform/http/web-app.ts). */
export default defineConfig({
  root: 'src/web',
  publicDir: false,
  logLevel: 'warn',
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    chunkSizeWarningLimit: 600,
  },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
});
