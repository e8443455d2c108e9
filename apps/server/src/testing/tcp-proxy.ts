import net from 'node:net';

/**
 * A loopback TCP relay that can be cut and restored, to stage an outage of the service behind it; given several
 * targets, it gives each connection to the next in turn, and to the one after when one refuses (a load balancer).
 */
export class TcpProxy {
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  private readonly targets: { host: string; port: number }[];
  private next = 0;

  constructor(
    targetHost: string,
    targetPort: number,
    readonly port: number,
    more: { host: string; port: number }[] = [],
  ) {
    this.targets = [{ host: targetHost, port: targetPort }, ...more];
  }

  async up(): Promise<void> {
    const server = net.createServer((client) => {
      this.track(client);
      client.on('error', () => client.destroy());
      const connect = (left: number) => {
        const target = this.targets[this.next++ % this.targets.length]!;
        const upstream = net.connect(target.port, target.host);
        upstream.once('error', () => (left > 1 && !client.destroyed ? connect(left - 1) : client.destroy()));
        upstream.once('connect', () => {
          this.track(upstream);
          upstream.on('error', () => client.destroy());
          client.on('error', () => upstream.destroy());
          client.pipe(upstream).pipe(client);
        });
      };
      connect(this.targets.length);
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.server = server;
  }

  private track(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
  }

  async down(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const s of this.sockets) s.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
