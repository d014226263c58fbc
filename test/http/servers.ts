// Two local HTTP servers (two origins) for the fetch contract: echo, redirects, server-sent events released one
// at a time, 204, gzip, two cookies, a reply that never comes.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

export interface Servers {
  /** The first origin, e.g. http://127.0.0.1:1234 */
  a: string;
  /** Another origin (another port), for cross-origin redirects. */
  b: string;
  /** Lets the open event stream send its next event. */
  releaseEvent(): void;
  close(): Promise<void>;
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
}

function redirect(res: ServerResponse, status: number, location: string): void {
  res.writeHead(status, { location }).end();
}

async function listen(server: Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export async function startServers(): Promise<Servers> {
  const releases: (() => void)[] = [];
  let origins = { a: '', b: '' };
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const body = await bodyOf(req);
    if (path === '/echo') return json(res, 200, { method: req.method, headers: req.headers, body });
    if (path === '/see-other') return redirect(res, 303, '/echo');
    if (path === '/found') return redirect(res, 302, '/echo');
    if (path === '/temporary') return redirect(res, 307, '/echo');
    if (path === '/elsewhere') return redirect(res, 307, `${origins.b}/echo`);
    if (path === '/no-content') return void res.writeHead(204).end();
    if (path === '/gzip') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      return void res.end(gzipSync(JSON.stringify({ zipped: true })));
    }
    if (path === '/cookies') {
      return void res
        .writeHead(200, [
          ['set-cookie', 'a=1'],
          ['set-cookie', 'b=2'],
        ])
        .end('two');
    }
    if (path === '/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      res.write('data: first\n\n');
      releases.push(() => res.end('data: second\n\n'));
      return;
    }
    if (path === '/never') return;
    json(res, 404, { path });
  };
  const servers = [0, 1].map(() =>
    createServer((req, res) => {
      handle(req, res).catch((err: unknown) => res.destroy(err instanceof Error ? err : undefined));
    }),
  );
  const [a, b] = await Promise.all(servers.map(listen));
  origins = { a: a ?? '', b: b ?? '' };
  return {
    ...origins,
    releaseEvent: () => releases.shift()?.(),
    close: async () => {
      for (const server of servers) {
        server.closeAllConnections();
        server.close();
      }
      await Promise.all(servers.map((server) => once(server, 'close')));
    },
  };
}
