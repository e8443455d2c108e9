// `npm run dev`: the server restarting on changes, and Vite with hot reload in front of it.
// Open http://localhost:5173; Vite passes /api, /auth and /idp through to the server.
import { spawn } from 'node:child_process';

const serverPort = process.env.PORT ?? '8080';
const children = [
  spawn(
    process.execPath,
    ['--watch-path=apps/server/src', '--watch-path=apps/idp/src', '--watch-path=packages/contracts/src', 'apps/server/bin/cabinet.mjs', 'serve'],
    { stdio: 'inherit', env: { PUBLIC_URL: 'http://localhost:5173', ...process.env, PORT: serverPort } },
  ),
  spawn('npm', ['run', 'dev', '-w', '@cabinet/web'], {
    stdio: 'inherit',
    env: { ...process.env, CABINET_DEV_SERVER: `http://localhost:${serverPort}` },
  }),
];
const stop = () => children.forEach((c) => c.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const c of children) c.on('exit', (code) => code && code !== 0 && stop());
