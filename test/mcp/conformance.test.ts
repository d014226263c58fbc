// The official MCP conformance scenarios (client mode), run against the relay's real McpHub through the
// same function as `npm run conformance`. Each scenario spawns the CLI and the client (about 2 s each).
import { describe, expect, it } from 'vitest';
import { runScenario, SCENARIOS } from '../../scripts/conformance.js';
import { conformanceClient } from '../setup/compiled.js';

describe('MCP conformance (client scenarios) against McpHub', () => {
  it.each(SCENARIOS)('passes every check of %s', { timeout: 40_000 }, async (scenario) => {
    const result = await runScenario(scenario, { clientArgs: conformanceClient() });
    const notPassed = result.checks.filter((check) => check.status !== 'SUCCESS');
    expect(notPassed, result.output).toEqual([]);
    expect(result.checks.length).toBeGreaterThan(0);
    expect(result.exitCode, result.output).toBe(0);
    expect(result.passed).toBe(true);
  });
});
