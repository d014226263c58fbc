// The real entry point (src/cli.ts) as a child process, for tests that need a separate replica or its exit code.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';
import { compiled } from '../setup/compiled.js';

const CLI = new URL('../../src/cli.ts', import.meta.url).pathname;

export interface Run {
  code: number | null;
  stderr: string;
}

/**
 * Runs src/cli.ts with only PATH, HOME, LOG_LEVEL and `env` in its environment, and `args` after it: `from`
 * 'source' through tsx; 'compiled' as the run's bundle of it (test/setup/compiled.ts), which starts in a third of
 * the time but cannot run the sandbox (it finds examples/ and its page next to its own file).
 */
export function runCli(
  env: Record<string, string>,
  args: string[] = [],
  from: 'source' | 'compiled' = 'source',
): CliRun {
  const entry = from === 'source' ? ['--import', 'tsx', CLI] : [compiled('src/cli.ts')];
  const child = spawn(process.execPath, [...entry, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const done = once(child, 'exit').then(([code]) => ({ code: code as number | null, stderr }));
  return { child, done, stdout: () => stdout };
}

/**
 * Every port freePort gave in this test process: the OS may offer a port again once its probe closed, and two
 * servers started together (a cluster's nodes and their buses) must not both be given it.
 */
const handedOut = new Set<number>();

/** A port nobody listens on now and that this process has not been given before. */
export async function freePort(): Promise<number> {
  for (;;) {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    return port;
  }
}

export interface CliRun {
  child: ChildProcess;
  done: Promise<Run>;
  stdout: () => string;
}

/** Resolves with the first match of `pattern` in the child's stdout; rejects with its stderr if it exits first. */
export async function waitForStdout(run: CliRun, pattern: RegExp): Promise<RegExpMatchArray> {
  for (;;) {
    const match = pattern.exec(run.stdout());
    if (match) return match;
    const next = await Promise.race([
      run.done.then((exit) => ({ exit })),
      new Promise<undefined>((resolve) => run.child.stdout?.once('data', () => resolve(undefined))),
    ]);
    if (next) throw new Error(`exited early (${String(next.exit.code)}): ${next.exit.stderr}`);
  }
}

/** Resolves once the child logs that it is ready; rejects with its stderr if it exits first. */
export async function waitUntilReady(run: CliRun): Promise<void> {
  await waitForStdout(run, /elicit-relay is ready/);
}
