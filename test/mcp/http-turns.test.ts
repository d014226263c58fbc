// Each HTTP exchange with a server waits the host's turn (McpHubOptions.turn) before its request goes and again
// before its answer is read: the Slack side passes its ack gate, so a crowd of session starts yields the event
// loop to the requests still waiting for their acks (issue #19 goals 6b, 7b).
import { afterEach, describe, expect, it } from 'vitest';
import { McpHub } from '../../src/mcp/hub.js';
import { serveHttp, type ServedHttp } from '../fixtures/elicit-server.js';
import { httpSpec } from './peers.js';
import { recordingSink } from './support.js';

let served: ServedHttp | undefined;
let hub: McpHub | undefined;
afterEach(async () => {
  await hub?.close();
  await served?.close();
});

/** Turns the test hands out one at a time; `asked` resolves once `n` have been asked for in all. */
function heldTurns() {
  const held: (() => void)[] = [];
  let asked = 0;
  let onAsk = (): void => undefined;
  return {
    turn: () =>
      new Promise<void>((resolve) => {
        held.push(resolve);
        asked += 1;
        onAsk();
      }),
    asked: (n: number) =>
      new Promise<void>((resolve) => {
        const check = (): void => (asked >= n ? resolve() : undefined);
        onAsk = check;
        check();
      }),
    held: () => held.length,
    giveNext: () => held.shift()?.(),
    count: () => asked,
  };
}

/** Lets the loop run a few turns, so anything not held back would have happened. */
async function loopTurns(n = 20): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('HTTP exchanges taking turns', () => {
  it("sends a session's requests and reads their answers only on the host's turns", async () => {
    const methods: string[] = [];
    served = await serveHttp(0, (method) => methods.push(method));
    const turns = heldTurns();
    hub = new McpHub({
      servers: [httpSpec('fixture', `http://127.0.0.1:${served.port}/mcp`)],
      sink: recordingSink(() => ({ action: 'decline' })),
      turn: turns.turn,
    });
    const call = hub.callTool({
      server: 'fixture',
      tool: 'echo',
      args: { text: 'hi' },
      origin: { userId: 'U1' },
    });
    let result: Awaited<typeof call> | undefined;
    void call.then((r) => (result = r));

    await turns.asked(1);
    await loopTurns();
    // The session's first request waits for its turn: nothing has reached the server.
    expect(methods).toEqual([]);
    turns.giveNext();
    await turns.asked(2);
    await loopTurns();
    // It went; its answer came and waits for the next turn before the session reads it and goes on.
    expect(methods).toEqual(['POST']);
    expect(turns.held()).toBe(1);

    while (result === undefined) {
      turns.giveNext();
      await loopTurns(5);
    }
    expect(result.text).toBe('hi');
    // Every request the server got waited a turn before it went and another before its answer was read.
    expect(turns.count()).toBeGreaterThanOrEqual(2 * methods.length);
  });

  it('goes at once when the hub has no turn to wait', async () => {
    served = await serveHttp(0);
    hub = new McpHub({
      servers: [httpSpec('fixture', `http://127.0.0.1:${served.port}/mcp`)],
      sink: recordingSink(() => ({ action: 'decline' })),
    });
    const result = await hub.callTool({
      server: 'fixture',
      tool: 'echo',
      args: { text: 'hi' },
      origin: { userId: 'U1' },
    });
    expect(result.text).toBe('hi');
  });
});
