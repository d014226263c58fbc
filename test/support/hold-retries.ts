// An HTTP proxy in front of a 2026 MCP server that passes everything on except a round's retry (a request
// whose body carries `inputResponses`): that one it holds, never forwarding or answering it, and `held`
// resolves. A test then knows the replica sent its retry and the server never saw it.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deferred } from './deferred.js';

export interface RetryHold {
  /** The proxy's URL for the server's endpoint (same path as the target's). */
  url: string;
  /** Resolves when the first retry arrived (and was held). */
  held: Promise<void>;
  close(): Promise<void>;
}

export async function holdRetries(targetUrl: string): Promise<RetryHold> {
  const target = new URL(targetUrl);
  const { promise: held, resolve: onHeld } = deferred();
  const server = createServer((req, res) => {
    void pass(req, res, target.origin, onHeld).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${target.pathname}`,
    held,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function pass(req: IncomingMessage, res: ServerResponse, origin: string, onHeld: () => void) {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
  if (body?.toString('utf8').includes('"inputResponses"') === true) {
    onHeld();
    return;
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (name === 'host' || name === 'content-length' || value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const response = await fetch(`${origin}${req.url ?? '/'}`, {
    method: req.method ?? 'GET',
    headers,
    ...(body === undefined ? {} : { body }),
  });
  const kept = [...response.headers].filter(
    ([name]) => !['content-length', 'transfer-encoding', 'content-encoding'].includes(name),
  );
  res.writeHead(response.status, Object.fromEntries(kept));
  if (response.body !== null) for await (const chunk of response.body) res.write(chunk);
  res.end();
}
