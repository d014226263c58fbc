// How the tests that need their own Redis start one: the machine's redis-server with its log on stdout, ready
// once the log says so (never polled or slept for), killed and awaited like a crash when the test says.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

const REDIS_SERVER = '/usr/bin/redis-server';

/** redis-server exited before it was ready; `portTaken` when its log says it could not bind its port. */
export class RedisServerExited extends Error {
  override readonly name = 'RedisServerExited';
  readonly portTaken: boolean;

  constructor(code: number | null, log: string) {
    super(`redis-server exited (${String(code)}): ${log}`);
    // redis-server's log is the only word on why it exited; it is read in tests, never in the product.
    this.portTaken = /Address already in use/.test(log);
  }
}

/**
 * Starts redis-server with `args` (which must send its log to stdout: `--logfile ''`) and resolves once the log
 * matches `ready`; rejects with a RedisServerExited carrying the log when it exits first.
 */
export async function spawnRedisServer(args: string[], ready: RegExp): Promise<ChildProcess> {
  const child = spawn(REDIS_SERVER, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      if (ready.test(log)) resolve();
    });
    child.once('exit', (code) => reject(new RedisServerExited(code, log)));
  });
  return child;
}

/** The process has neither exited nor been killed by a signal. */
export const isRunning = (child: ChildProcess): boolean =>
  child.exitCode === null && child.signalCode === null;

/** Sends `signal` (SIGKILL: no shutdown save, like a crash) and waits for the exit; a process gone is left be. */
export async function killAndWait(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (!isRunning(child)) return;
  const exited = once(child, 'exit');
  child.kill(signal);
  await exited;
}
