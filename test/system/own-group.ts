// The bot (src/cli.ts) as the leader of a process group of its own, as `npm start` runs in a terminal: Ctrl-C
// (or `kill -TERM -- -<pgid>`) signals the bot and the stdio MCP servers it spawned, all at once.
import { spawn } from 'node:child_process';
import { compiled } from '../setup/compiled.js';
import type { CliRun, Run } from './child.js';

const CLI = new URL('../../src/cli.ts', import.meta.url).pathname;

/**
 * The bot as the leader of a process group of its own (`detached` here, in the test, only so that the whole
 * group can be signalled as a terminal does), its stdio servers in that group as the bot spawns them. The
 * compiled bundle cannot run the sandbox (test/system/child.ts): `source` runs src/cli.ts through tsx.
 */
export function runBotInOwnGroup(env: Record<string, string>, from: 'source' | 'compiled'): CliRun {
  const entry = from === 'source' ? ['--import', 'tsx', CLI] : [compiled('src/cli.ts')];
  const child = spawn(process.execPath, entry, {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<Run>((resolve) => child.once('exit', (code) => resolve({ code, stderr })));
  return { child, done, stdout: () => stdout };
}

/** The bot's log records (JSON lines). */
export function records(run: CliRun): Record<string, unknown>[] {
  return run
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The bot's log records with message `msg`. */
export function logged(run: CliRun, msg: string): Record<string, unknown>[] {
  return records(run).filter((record) => record.msg === msg);
}

/** The bot's process group (never -0: that would be the test's own group); throws when the bot did not start. */
export async function groupOf(run: CliRun): Promise<number> {
  const { pid } = run.child;
  if (pid === undefined) throw new Error(`the bot did not start: ${(await run.done).stderr}`);
  return -pid;
}

/** SIGKILLs what is left of the group: nothing of it outlives a test, whatever failed. */
export function killGroup(group: number): void {
  try {
    process.kill(group, 'SIGKILL');
  } catch {
    // ESRCH: the whole group is gone already
  }
}
