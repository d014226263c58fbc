// A pattern's test is bounded by the work it does, not by the wall clock alone: a host that does not run the
// process for longer than the bound (a loaded 2-core machine, here a SIGSTOP) must not turn a person's answer
// that matches a sane pattern into "Does not match the expected format".
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { PATTERN_TEST_MS } from '../../blocks/patterns.js';
import { compiled } from '../setup/compiled.js';

/** How long each stop holds the process (ms): past the bound, as a starved test's wall time is. */
const STOPPED_MS = PATTERN_TEST_MS * 2;
const STOPS = 12;

describe('a sane pattern tested while the process is not being run', () => {
  it('still matches: a run the host starved is run again, not taken for a catastrophic pattern', async () => {
    const child = spawn(process.execPath, [compiled('test/fixtures/pattern-loop.ts')], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    expect((await lines.next()).value).toBe('ready');
    for (let stop = 0; stop < STOPS; stop += 1) {
      child.kill('SIGSTOP');
      await sleep(STOPPED_MS); // the fault itself: the process held still past the bound
      child.kill('SIGCONT');
      await sleep(20);
    }
    child.stdin.end();
    const result = JSON.parse(String((await lines.next()).value)) as { tests: number; refused: number };
    await once(child, 'exit');
    expect(result.tests).toBeGreaterThan(STOPS);
    expect(result.refused).toBe(0);
  }, 30_000);
});
