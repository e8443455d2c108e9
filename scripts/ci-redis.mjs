// Prints the URL of the local Redis server when it answers PING (exit 1 when none does).
import net from 'node:net';

const url = process.env.CI_REDIS_URL ?? 'redis://127.0.0.1:6379';
const { hostname, port } = new URL(url);
const socket = net.connect({ host: hostname, port: Number(port || 6379), timeout: 2000 });
const give = (code) => {
  socket.destroy();
  process.exit(code);
};
socket.on('connect', () => socket.write('PING\r\n'));
socket.on('data', (data) => {
  if (data.toString().startsWith('+PONG')) {
    process.stdout.write(url);
    give(0);
  } else give(1);
});
socket.on('timeout', () => give(1));
socket.on('error', () => give(1));
