// A TCP forwarder in front of the test Redis that a test can cut and restore, to play "Redis went away".
import net from 'node:net';

export interface TcpProxy {
  url: string;
  /** Drops every connection and stops accepting new ones. */
  cut(): Promise<void>;
  /** Silently stops forwarding on the open connections (no FIN, as in a partition); new ones work. */
  blackhole(): void;
  /** Accepts connections again on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startProxy(targetUrl: string): Promise<TcpProxy> {
  const target = new URL(targetUrl);
  const sockets = new Set<net.Socket>();
  const pairs = new Set<[net.Socket, net.Socket]>();
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => s.destroy());
  };
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 6379), target.hostname);
    track(client);
    track(upstream);
    client.pipe(upstream).pipe(client);
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    client.on('close', () => pairs.delete(pair));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const listen = (port: number) => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const stop = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const s of sockets) s.destroy();
    });
  await listen(0);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const auth = target.password ? `:${target.password}@` : '';
  return {
    url: `redis://${auth}127.0.0.1:${port}${target.pathname}`,
    cut: stop,
    blackhole: () => {
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
      pairs.clear();
    },
    restore: () => listen(port),
    close: () => (server.listening ? stop() : Promise.resolve()),
  };
}
