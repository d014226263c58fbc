// A private redis-server for tests that kill or restart Redis: its own free port and temp dir, never the
// shared server's data. Started from /usr/bin/redis-server with logs on stdout, so readiness is awaited from
// its "Ready to accept connections" line instead of polled.
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnRedisServer, killAndWait } from '../../support/redis-process.js';
import { freePort } from '../../system/child.js';

export interface PrivateRedis {
  url: string;
  port: number;
  /** Starts the server again on the same port and dir; `wipe` deletes its files first (data lost). */
  restart(opts?: { wipe?: boolean }): Promise<void>;
  /** Sends a signal and waits for the process to exit (SIGKILL: no shutdown save, like a crash). */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** SIGSTOP: the server keeps its sockets open but answers nothing (a hung Redis), until `resume`. */
  pause(): void;
  /** SIGCONT after `pause`. */
  resume(): void;
  stop(): Promise<void>;
}

export interface PrivateRedisOptions {
  /** appendonly yes with appendfsync everysec; default true. */
  aof?: boolean;
  /** Redis's maxmemory (`32mb`); default none. */
  maxmemory?: string;
}

export async function startPrivateRedis(options: PrivateRedisOptions = {}): Promise<PrivateRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'elicit-relay-redis-'));
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    '--logfile',
    '',
    '--appendonly',
    options.aof === false ? 'no' : 'yes',
    '--appendfsync',
    'everysec',
    '--maxmemory-policy',
    'noeviction',
    ...(options.maxmemory === undefined ? [] : ['--maxmemory', options.maxmemory]),
  ];
  let child: ChildProcess | undefined;
  const launch = async (): Promise<void> => {
    child = await spawnRedisServer(args, /Ready to accept connections/);
  };
  const kill = async (signal: NodeJS.Signals = 'SIGKILL'): Promise<void> => {
    const running = child;
    child = undefined;
    if (running) await killAndWait(running, signal);
  };
  await launch();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    restart: async (opts = {}) => {
      await kill();
      if (opts.wipe) {
        rmSync(dir, { recursive: true, force: true });
        mkdirSync(dir, { recursive: true });
      }
      await launch();
    },
    kill,
    pause: () => child?.kill('SIGSTOP'),
    resume: () => child?.kill('SIGCONT'),
    stop: async () => {
      child?.kill('SIGCONT');
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
