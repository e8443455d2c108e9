import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const server = process.env.CABINET_DEV_SERVER ?? 'http://localhost:8080';

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 1500 },
  server: {
    port: 5173,
    // The API, sign-in and the embedded provider are served by the Cabinet server.
    proxy: {
      ...Object.fromEntries(['/api', '/auth', '/idp', '/storage', '/healthz', '/readyz'].map((p) => [p, { target: server }])),
      '/collab': { target: server, ws: true },
    },
  },
});
