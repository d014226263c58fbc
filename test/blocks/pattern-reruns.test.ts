// A pattern test the host starved (cut short at its wall-clock bound with little CPU spent) is run again
// (blocks/patterns.ts). A hostile sender's form of many fields, each with its own catastrophic pattern, on a
// loaded host must not turn that into a bound per run per field: the runs again of one validation share a budget.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PATTERN_TEST_MS, withPatternTimeouts } from '../../blocks/patterns.js';
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
      // Every run reads as starved: the process's CPU never moves (a loaded host, as the retry judges one).
      vi.spyOn(process, 'cpuUsage').mockReturnValue({ user: 0, system: 0 });
      const properties = Object.fromEntries(
        Array.from({ length: FIELDS }, (_, i) => [`f${i}`, { type: 'string', pattern: redos(i) }]),
      );
      const spec = parseFormSchema({ type: 'object', properties });
      const content = Object.fromEntries(spec.fields.map((f) => [f.name, ANSWER]));
      const reported: string[] = [];
      const started = performance.now();
      const errors = withPatternTimeouts(
        (pattern) => reported.push(pattern),
        () => validationErrors(spec, content),
      );
      const heldMs = performance.now() - started;
      expect(Object.keys(errors)).toHaveLength(FIELDS);
      expect(reported).toHaveLength(FIELDS);
      // One bound per field and a few runs again in all (~550 ms); each field run 4 times held it ~1,600 ms.
      expect(heldMs).toBeLessThan(FIELDS * PATTERN_TEST_MS * 2.5);
    },
  );
});
