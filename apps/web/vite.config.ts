import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, parseAst, type Plugin } from 'vite';

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
      for (const file of files.filter((f) => /\.(js|css|svg|wasm)$/.test(f) && statSync(f).size > 1024)) {
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

/** The documentation that route declarations carry for the OpenAPI description: read by the server only. */
const ROUTE_DOCS = new Set(['summary', 'description']);

/**
 * Leaves each route declaration's `summary` and `description` out of the browser app: the browser
 * calls routes by method and path and never shows their documentation (about 1 KB of the first
 * page's compressed script). Only the arguments of `defineRoute` and `defineAddressedRoute` calls in
 * the contracts' route modules are touched, found by parsing, not by pattern.
 */
export function withoutRouteDocs(): Plugin {
  return {
    name: 'cabinet:without-route-docs',
    apply: 'build',
    transform(code, id) {
      if (!/[\\/]packages[\\/]contracts[\\/]src[\\/]routes[\\/](?!define-route)[^\\/]+\.ts$/.test(id)) return null;
      const cuts: [number, number][] = [];
      const visit = (node: unknown): void => {
        if (!node || typeof node !== 'object') return;
        if (Array.isArray(node)) return node.forEach(visit);
        const n = node as { type?: string; callee?: { type: string; name?: string }; arguments?: unknown[] };
        if (n.type === 'CallExpression' && n.callee?.type === 'Identifier' && /^define(Addressed)?Route$/.test(n.callee.name ?? '')) {
          const declaration = n.arguments?.[0] as { type: string; properties: { type: string; key?: { name?: string }; start: number; end: number }[] };
          if (declaration?.type === 'ObjectExpression') {
            const props = declaration.properties;
            props.forEach((p, i) => {
              if (p.type !== 'Property' || !ROUTE_DOCS.has(p.key?.name ?? '')) return;
              // With the comma that joins it to the next property (or, last, to the one before): the object stays well formed.
              const next = props[i + 1];
              cuts.push(next ? [p.start, next.start] : [props[i - 1]?.end ?? p.start, p.end]);
            });
          }
        }
        for (const value of Object.values(node)) if (value && typeof value === 'object') visit(value);
      };
      visit(parseAst(code));
      if (cuts.length === 0) return null;
      let out = code;
      for (const [start, end] of cuts.sort((a, b) => b[0] - a[0])) out = out.slice(0, start) + out.slice(end);
      return { code: out, map: null };
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
