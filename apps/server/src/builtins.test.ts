import { expect, it } from 'vitest';

it("leaves the language's built-ins as they are: the server's own thread loads no polyfill", async () => {
  const builtins = () => ({
    'JSON.stringify': JSON.stringify,
    'JSON.parse': JSON.parse,
    'Array.prototype.push': Array.prototype.push,
    'Function.prototype.toString': Function.prototype.toString,
  });
  const before = builtins();
  // What main.ts loads (it starts a server itself, so its modules are imported instead). pdfjs's legacy build, which
  // replaces these, belongs in the preview and text workers only.
  await Promise.all([import('./app.ts'), import('./collab/collab-server.ts'), import('./cli/commands.ts'), import('./jobs.ts')]);
  expect(builtins()).toEqual(before);
  expect('pdfjsLib' in globalThis).toBe(false);
}, 60_000);
