// The baseline of the document benchmarks: a bare Hocuspocus server on PORT, on /collab like Cabinet's,
// with no authentication and no persistence.
import { Server } from '@hocuspocus/server';

const server = new Server({ port: Number(process.env.PORT), address: '127.0.0.1', quiet: true });
await server.listen();
process.stdout.write('ready\n');
