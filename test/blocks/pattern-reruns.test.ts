// A pattern test the host starved (cut short at its wall-clock bound with little CPU spent) is run again
// (blocks/patterns.ts). A hostile sender's form of many fields, each with its own catastrophic pattern, on a
// loaded host must not turn that into a bound per run per field: the runs again of one validation share a budget.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { withPatternTimeouts } from '../../blocks/patterns.js';
import { parseFormSchema } from '../../blocks/schema.js';
import { validationErrors } from '../../blocks/validate.js';

/** Backtracks catastrophically on the answer below; each field's pattern its own (no pattern shared). */
const redos = (i: number): string => `^(a+)+$|^x${i}$`;
const ANSWER = `${'a'.repeat(30)}!`;
const FIELDS = 8;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('many fields with catastrophic patterns, validated on a host that seems to starve every test', () => {
  it(
    'hold the event loop about one bound per pattern, not one per run again of each',
    { timeout: 20_000 },
    () => {
      // Every run reads as starved: the process's CPU never moves (a loaded host, as the retry judges one). Each
      // run of a test starts by reading the CPU (cpuUsage with no argument), so those reads count the runs.
      const cpu = vi.spyOn(process, 'cpuUsage').mockReturnValue({ user: 0, system: 0 });
      const properties = Object.fromEntries(
        Array.from({ length: FIELDS }, (_, i) => [`f${i}`, { type: 'string', pattern: redos(i) }]),
      );
      const spec = parseFormSchema({ type: 'object', properties });
      const content = Object.fromEntries(spec.fields.map((f) => [f.name, ANSWER]));
      const reported: string[] = [];
      const errors = withPatternTimeouts(
        (pattern) => reported.push(pattern),
        () => validationErrors(spec, content),
      );
      const runs = cpu.mock.calls.filter((args) => args[0] === undefined).length;
      expect(Object.keys(errors)).toHaveLength(FIELDS);
      expect(reported).toHaveLength(FIELDS);
      // One run (one bound of PATTERN_TEST_MS) per field and the validation's 3 runs again in all (its shared
      // budget, STARVED_RUNS_MAX - 1): 11 bounds, ~550 ms. Each field run 4 times would be 32, ~1,600 ms.
      expect(runs).toBe(FIELDS + 3);
    },
  );
});
