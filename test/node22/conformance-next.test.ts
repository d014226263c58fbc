// Every client scenario of @modelcontextprotocol/conformance 0.2.0-alpha.12 (devDependency alias
// conformance-next, the first release with sep-2322-client-request-state) against the relay's McpHub, through
// the same client as 0.1.13's (scripts/conformance-client.ts). That CLI needs Node 22, so this folder runs only
// in `npm run test:node22` (vitest.config.ts leaves it out on older Node). Scenarios run one after another:
// each starts a CLI and a client (node + tsx), and five at once made clients miss the CLI's 20 s limit on a
// loaded 2-core machine; sse-retry also times reconnections.
import { describe, expect, it } from 'vitest';
import { NEXT_SCENARIOS, runScenario, type ScenarioResult } from '../../scripts/conformance.js';

const TIMING = 'sse-retry';

/** The skills extension (SEP-2640): the bot never calls skills/list, so each scenario only skips its check. */
const SKILLS = NEXT_SCENARIOS.filter((scenario) => scenario.startsWith('sep-2640-'));

const PASSING = NEXT_SCENARIOS.filter((scenario) => scenario !== TIMING && !SKILLS.includes(scenario));

function expectEveryCheckPassed(result: ScenarioResult): void {
  const failed = result.checks.filter((check) => check.status === 'FAILURE' || check.status === 'WARNING');
  expect(failed, result.output).toEqual([]);
  expect(
    result.checks.some((check) => check.status === 'SUCCESS'),
    result.output,
  ).toBe(true);
  expect(result.exitCode, result.output).toBe(0);
}

/**
 * 40 s for the client process (the CLI's limit; 0.1.13's tests give 20 s): at load ~18 on 2 cores a cold
 * `node --import tsx` client of tools_call or auth/client-credentials-basic took over 20 s to finish.
 */
const run = (scenario: string): Promise<ScenarioResult> =>
  runScenario(scenario, { release: 'next', timeoutMs: 40_000 });

describe('MCP conformance 0.2.0-alpha.12 client scenarios against McpHub (Node 22)', () => {
  it('lists every client scenario once: passing or skills-only', () => {
    const sorted = [...PASSING, TIMING, ...SKILLS].sort();
    expect(sorted).toEqual([...NEXT_SCENARIOS].sort());
  });

  it.each([TIMING, ...PASSING])('passes every check of %s', { timeout: 90_000 }, async (scenario) => {
    expectEveryCheckPassed(await run(scenario));
  });

  it.each(SKILLS)(
    'is judged on nothing in %s: the bot never lists skills',
    { timeout: 90_000 },
    async (scenario) => {
      const result = await run(scenario);
      expect(
        result.checks.map((check) => check.status),
        result.output,
      ).toEqual(['SKIPPED']);
      expect(result.exitCode, result.output).toBe(0);
    },
  );
});
