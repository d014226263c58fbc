// A TCP forwarder in front of Redis that, once armed, swallows every reply on the one connection whose request
// matched a pattern (the request itself reaches Redis and is applied): a reply lost on the way back.
import net from 'node:net';

export interface ReplyDroppingProxy {
  url: string;
  /** From the next client chunk containing `pattern` on, that connection's replies are dropped. */
  dropRepliesAfter(pattern: string): { matched: Promise<void> };
  close(): Promise<void>;
}

export async function startReplyDroppingProxy(targetUrl: string): Promise<ReplyDroppingProxy> {
  const target = new URL(targetUrl);
  const sockets = new Set<net.Socket>();
  let armed: { pattern: string; matched: () => void } | undefined;
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 6379), target.hostname);
    let dropping = false;
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => s.destroy());
    }
    client.on('data', (chunk: Buffer) => {
      if (armed && chunk.includes(armed.pattern)) {
        dropping = true;
        armed.matched();
        armed = undefined;
      }
      if (!upstream.destroyed) upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!dropping && !client.destroyed) client.write(chunk);
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `redis://127.0.0.1:${port}${target.pathname}`,
    dropRepliesAfter: (pattern) => {
      let matched = (): void => undefined;
      const promise = new Promise<void>((resolve) => (matched = resolve));
      armed = { pattern, matched: () => matched() };
      return { matched: promise };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}
