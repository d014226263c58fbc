// Child processes the tests spawn many times (the fixture MCP server, the fault suite's store replicas, bot
// replicas started through src/cli.ts) run as
// JavaScript compiled once per test run by the global setup (test/setup/compile.ts), not through
// `node --import tsx`: on the 2-core CI machine under the suite's own load a cold tsx start took ≈ 3 s until the
// fixture answered `initialize`, the compiled file ≈ 1 s.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Source files compiled for the run, relative to the project root. */
export const COMPILED_ENTRIES = [
  'test/fixtures/elicit-server.ts',
  'test/fixtures/silent-server.ts',
  'test/fixtures/pattern-loop.ts',
  'test/faults/support/replica.ts',
  'src/cli.ts',
  'scripts/conformance-client.ts',
] as const;

export type CompiledEntry = (typeof COMPILED_ENTRIES)[number];

/** The compiled file of `entry` in this run's output directory (see compile.ts). */
export function compiled(entry: CompiledEntry): string {
  return join(inject('compiledDir'), entry.replace(/\.ts$/, '.mjs'));
}

/** The fixture MCP server as an `mcpServers` entry's command and arguments (stdio). */
export function fixtureCommand(): { command: string; args: string[] } {
  return { command: process.execPath, args: [compiled('test/fixtures/elicit-server.ts')] };
}

/** node's arguments for the conformance client (scripts/conformance-client.ts), for runScenario. */
export function conformanceClient(): string[] {
  return [compiled('scripts/conformance-client.ts')];
}
