// The sandbox's own Redis, for a newcomer with none running: the redis-server found on PATH, on a free
// loopback port, its files in a fresh temporary folder, both gone when the sandbox stops. Used only when
// the Redis the sandbox looks for is local and does not answer; a remote Redis that is down is the user's to fix.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { once } from 'node:events';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { Readable } from 'node:stream';
import { RelayError } from '../relay/errors.js';
import { isLoopbackHostname } from './loopback.js';

/** The private Redis could not start (no free port, redis-server refused its arguments, exited). */
export class PrivateRedisError extends RelayError<'private_redis_failed'> {
  override name = 'PrivateRedisError';
}

export interface PrivateRedis {
  url: string;
  /** Its temporary folder (removed by stop()). */
  dir: string;
  /** Stops the server and removes its folder. */
  stop(): Promise<void>;
}

/** The first executable `redis-server` in `path` (a PATH value), if any. */
export function redisServerOnPath(path: string): string | undefined {
  for (const dir of path.split(delimiter).filter(Boolean)) {
    const file = join(dir, 'redis-server');
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // Not here, or not executable: the next PATH entry.
    }
  }
  return undefined;
}

/** True for a Redis URL on this machine (loopback), the only kind a private Redis may stand in for. */
export function isLoopbackRedis(url: string): boolean {
  return isLoopbackHostname(new URL(url).hostname);
}

async function freeLoopbackPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** redis-server's arguments: this port on loopback, files in `dir`, nothing saved (a sandbox keeps nothing). */
function serverArgs(port: number, dir: string): string[] {
  return ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'];
}

/** Resolves once the server logs that it accepts connections; rejects with its log if it fails or exits first. */
function ready(child: ChildProcessByStdio<null, Readable, Readable>): Promise<void> {
  let log = '';
  return new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('Ready to accept connections')) resolve();
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`exited with ${String(code)}: ${log.trim()}`)));
  });
}

/**
 * Starts `binary` without persistence and resolves once it accepts connections. A process exit kills it, in
 * case stop() never runs.
 */
export async function startPrivateRedis(binary: string): Promise<PrivateRedis> {
  const dir = mkdtempSync(join(tmpdir(), 'elicit-relay-sandbox-redis-'));
  const port = await freeLoopbackPort();
  const child = spawn(binary, [...serverArgs(port, dir), '--logfile', ''], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const killOnExit = (): void => void child.kill('SIGKILL');
  process.once('exit', killOnExit);
  try {
    await ready(child);
  } catch (cause) {
    process.off('exit', killOnExit);
    rmSync(dir, { recursive: true, force: true });
    throw new PrivateRedisError('private_redis_failed', `${binary} did not start`, { cause });
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    dir,
    stop: async () => {
      process.off('exit', killOnExit);
      if (child.exitCode === null && child.signalCode === null) {
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
