// Vitest global setup: make sure a Redis answers for the whole run and give the run its own key prefix.
// Uses 127.0.0.1:6379 when it answers; otherwise starts a private redis-server on a free port.
// Never flushes anything: every test isolates itself under the run's prefix, and at the end of the run every
// key under that prefix is deleted (SCAN + UNLINK), so a run leaves nothing behind even when a test stopped
// before its own cleanup.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import type { TestProject } from 'vitest/node';
import { deleteKeysUnder } from './delete-keys.js';

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.setTimeout(500);
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (buf) => {
      socket.destroy();
      resolve(buf.toString().startsWith('+PONG'));
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

let child: ChildProcess | undefined;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let url = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  if (!process.env.TEST_REDIS_URL && !(await answers(6379))) {
    const port = await freePort();
    child = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    for (let i = 0; i < 100 && !(await answers(port)); i++) await new Promise((r) => setTimeout(r, 50));
    url = `redis://127.0.0.1:${port}`;
  }
  const prefix = `test-${randomBytes(4).toString('hex')}`;
  project.provide('redisUrl', url);
  project.provide('redisPrefix', prefix);
  return async () => {
    await deleteKeysUnder(url, prefix);
    child?.kill();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
    redisPrefix: string;
  }
}
