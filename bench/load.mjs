// A load generator in a worker thread of its own, so the client's work does not share the
// server's event loop: `connections` keep-alive connections, each sending GET `url` again as soon
// as the last answer has been read, for `durationMs`. Posts the answers per second.
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';

const { url, headers, connections, durationMs, warmUpMs } = workerData;
const agent = new Agent({ keepAlive: true, maxSockets: connections });

function get() {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`${url} answered ${res.statusCode}`))));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function run(ms) {
  let answered = 0;
  const until = performance.now() + ms;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < until) {
        await get();
        answered++;
      }
    }),
  );
  return answered / ((performance.now() - start) / 1000);
}

await run(warmUpMs);
const perSecond = await run(durationMs);
agent.destroy();
parentPort.postMessage(perSecond);
