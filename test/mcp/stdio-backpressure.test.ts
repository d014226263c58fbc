// A stdio server that reads its stdin slowly while the bot has many messages for it (a burst of answers):
// every send completes and no 'drain' listener per message piles up on the pipe (issue 15.13:
// MaxListenersExceededWarning "11 drain listeners added to [Socket]" during a flood).
import { describe, expect, it } from 'vitest';
import { transportPlan } from '../../src/mcp/transport.js';
import type { McpTransportSpec } from '../../src/mcp/types.js';

/** Starts reading its stdin (and dropping it) only after 300 ms. */
const SLOW_READER = 'setTimeout(() => process.stdin.resume(), 300)';
/** Messages sent at once, each about 100 KB: far more than the pipe buffers (64 KB on Linux). */
const MESSAGES = 50;

describe('the stdio transport under backpressure', () => {
  it('sends 50 large messages at once to a slow reader without a MaxListenersExceededWarning', async () => {
    const spec: McpTransportSpec = {
      kind: 'stdio',
      command: process.execPath,
      args: ['-e', SLOW_READER],
      env: {},
    };
    const transport = await transportPlan({
      name: 'slow',
      transport: spec,
      elicitationTimeoutMs: 60_000,
    }).primary();
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      await transport.start();
      const filler = 'x'.repeat(100_000);
      await Promise.all(
        Array.from({ length: MESSAGES }, (_, id) =>
          transport.send({ jsonrpc: '2.0', id, method: 'ping', params: { filler } }),
        ),
      );
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
      await transport.close();
    }
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });
});
