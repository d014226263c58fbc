// The bot's start-up against a Redis topology, as a child process (compiled, as refusals.test.ts runs it)
// with Slack settings that get it as far as Redis, and a TCP node that accepts connections and never answers
// (a hung or paused Redis, a proxy whose backend is down).
import { once } from 'node:events';
import net from 'node:net';
import { runCli, type CliRun } from '../../system/child.js';
import { BOT_TOKEN, SIGNING_SECRET } from '../../system/harness.js';

/** Slack settings that pass the config check; start-up reaches Redis before it calls Slack at all. */
export const SLACK_ENV = {
  SLACK_BOT_TOKEN: BOT_TOKEN,
  SLACK_SIGNING_SECRET: SIGNING_SECRET,
  SLACK_API_URL: 'http://127.0.0.1:9/api/',
  PORT: '0',
};

/** The bot with `env` over SLACK_ENV, compiled. */
export function startBot(env: Record<string, string>): CliRun {
  return runCli({ ...SLACK_ENV, ...env }, [], 'compiled');
}

/** A TCP server that accepts every connection and never writes a byte. */
export interface SilentNode {
  port: number;
  /** Resolves at the next connection it accepts. */
  nextConnection(): Promise<void>;
  close(): Promise<void>;
}

export async function startSilentNode(): Promise<SilentNode> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    nextConnection: async () => {
      await once(server, 'connection');
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
