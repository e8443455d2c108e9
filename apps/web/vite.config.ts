import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { withoutRouteDocs } from './build/without-route-docs.ts';

const server = process.env.CABINET_DEV_SERVER ?? 'http://localhost:8080';

/**
 * Writes `file.br` and `file.gz` beside every text asset of the build, at the highest levels (done
 * once here, not per request), so the server sends them as they are to browsers that accept them.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'cabinet:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const files = (readdirSync(outDir, { recursive: true }) as string[]).map((f) => path.join(outDir, f));
      for (const file of files.filter((f) => /\.(m?js|css|svg|wasm)$/.test(f) && statSync(f).size > 1024)) {
        const bytes = readFileSync(file);
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
        );
        writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), withoutRouteDocs(), precompress()],
  // The manifest maps each source module to its chunk and what that chunk imports (the bundle size test reads it).
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    // The first page's budget is asserted in compressed bytes (test/bundle-size.test.ts); the editor's chunk is big by nature.
    chunkSizeWarningLimit: 1000,
    // Everything the first page needs in one file: split into the small chunks shared with later
    // pages it would compress a tenth worse.
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'app', tags: ['$initial'] }] } } },
  },
  server: {
    port: 5173,
    // The API, sign-in and the embedded provider are served by the Cabinet server.
    proxy: {
      ...Object.fromEntries(['/api', '/auth', '/idp', '/storage', '/healthz', '/readyz'].map((p) => [p, { target: server }])),
      '/collab': { target: server, ws: true },
    },
  },
});
