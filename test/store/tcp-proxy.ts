// A TCP forwarder in front of the test Redis that a test can cut, slow, blackhole, reset and restore, to play
// network faults between the bot and Redis (no external proxy binary needed).
import net from 'node:net';

export interface TcpProxy {
  url: string;
  /** Drops every connection and stops accepting new ones. */
  cut(): Promise<void>;
  /** Silently stops forwarding on the open connections (no FIN, as in a partition); new ones work. */
  blackhole(): void;
  /** Delays every chunk, both ways, by `ms` (0 turns it off); order is kept. */
  latency(ms: number): void;
  /** Aborts every open connection with a TCP RST; new ones work. */
  reset(): void;
  /**
   * Holds what Redis sends until `release()` writes it all at once; `arrived` resolves once something is held
   * (a reply the client is not reading yet).
   */
  holdReplies(): { arrived: Promise<void>; release(): void };
  /** Accepts connections again on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

interface Pair {
  client: net.Socket;
  upstream: net.Socket;
  /** False once blackholed: data is swallowed. */
  forwarding: boolean;
}

export async function startProxy(targetUrl: string): Promise<TcpProxy> {
  const target = new URL(targetUrl);
  const sockets = new Set<net.Socket>();
  const pairs = new Set<Pair>();
  let delayMs = 0;
  let held: { chunks: (() => void)[]; arrived: () => void } | undefined;
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => s.destroy());
  };
  const forward = (pair: Pair, to: net.Socket) => (chunk: Buffer) => {
    const send = () => void (pair.forwarding && !to.destroyed && to.write(chunk));
    if (held && to === pair.client) {
      held.chunks.push(send);
      held.arrived();
    } else if (delayMs > 0) setTimeout(send, delayMs);
    else send();
  };
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 6379), target.hostname);
    track(client);
    track(upstream);
    const pair: Pair = { client, upstream, forwarding: true };
    pairs.add(pair);
    client.on('data', forward(pair, upstream));
    upstream.on('data', forward(pair, client));
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
      for (const pair of pairs) pair.forwarding = false;
      pairs.clear();
    },
    latency: (ms) => {
      delayMs = ms;
    },
    reset: () => {
      for (const { client, upstream } of pairs) {
        client.resetAndDestroy();
        upstream.resetAndDestroy();
      }
    },
    holdReplies: () => {
      let arrived = (): void => undefined;
      const hold: { chunks: (() => void)[]; arrived: () => void } = { chunks: [], arrived: () => arrived() };
      held = hold;
      return {
        arrived: new Promise<void>((resolve) => (arrived = resolve)),
        release: () => {
          held = undefined;
          for (const send of hold.chunks.splice(0)) send();
        },
      };
    },
    restore: () => listen(port),
    close: () => (server.listening ? stop() : Promise.resolve()),
  };
}
