// Child processes of the test process: over stdio each MCP session of an in-process replica is one, so a test
// can see a session start (and which process a tool ran in).
import { readFileSync, readdirSync } from 'node:fs';
import { expect, vi } from 'vitest';

/** This process's child processes (Linux: each thread's `children` under /proc). */
export function childPids(): number[] {
  return readdirSync('/proc/self/task').flatMap((tid) =>
    readFileSync(`/proc/self/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
  );
}

/**
 * The one child process started since `before` was taken, once there is one: over stdio each MCP session is a
 * child process of the bot, here the test's process.
 */
export function startedChild(before: number[]): Promise<number | undefined> {
  return vi.waitFor(() => {
    const started = childPids().filter((pid) => !before.includes(pid));
    expect(started).toHaveLength(1);
    return started[0];
  }, 15_000);
}
