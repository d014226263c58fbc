// How long a child process (the bot through src/cli.ts, test/system/child.ts) may take to exit: a hang fails
// the test with its own message instead of the test's timeout, and leaves no process behind.
import type { CliRun } from '../system/child.js';

export type Exit = { code: number | null; stderr: string } | { hung: true; stderr: string };

/**
 * The child's exit, or `hung` once `ms` (real time: the child's own clock cannot be injected) passed without
 * one; a hung child is killed so the test leaves nothing behind.
 */
export async function exitWithin(run: CliRun, ms: number): Promise<Exit> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms)));
  const exit = await Promise.race([run.done, late]);
  clearTimeout(timer);
  if (exit !== 'late') return exit;
  run.child.kill('SIGKILL');
  const { stderr } = await run.done;
  return { hung: true, stderr };
}
