// `elicit-relay call` as a child process against a running bot (real Redis, real HTTP, the fixture MCP server,
// the Slack stand-in): the tool runs as the person, its question is answered on their card, and the client
// prints the CallToolResult and exits as PRODUCT's table says.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardWith } from './api-support.js';
import { runCli } from './child.js';
import { startHarness, type Harness } from './harness.js';

const TOKEN = 'api-token-client-call-0123456789';

describe('elicit-relay call against a running bot', () => {
  let h: Harness;
  let env: Record<string, string>;
  beforeAll(async () => {
    h = await startHarness({ replicas: 1, env: { ELICIT_RELAY_API_TOKEN: TOKEN } });
    env = { ELICIT_RELAY_URL: `http://127.0.0.1:${h.replicas[0]?.port}`, ELICIT_RELAY_API_TOKEN: TOKEN };
  });
  afterAll(async () => {
    await h.close();
  });

  it(
    'exits 0 printing the CallToolResult once the person answered the call’s question',
    { timeout: 60_000 },
    async () => {
      const args = { message: 'Roll back build 17?', schema: { type: 'object', properties: {} } };
      const run = runCli(env, [
        'call',
        '--server',
        'fixture',
        '--tool',
        'ask',
        '--as',
        'U1',
        '--args',
        JSON.stringify(args),
      ]);
      const card = await cardWith(h, 'Roll back build 17?');
      expect(card.channel).toBe(h.standin.dmChannelOf('U1'));
      await h.driver.clickButton({ userId: 'U1', ...card, actionId: 'elicit_decline' });
      const { code, stderr } = await run.done;
      expect(code).toBe(0);
      expect(JSON.parse(run.stdout())).toEqual({
        content: [{ type: 'text', text: JSON.stringify({ action: 'decline' }) }],
      });
      expect(stderr).toMatch(/^elicit-relay: waiting for fixture ask \(call call_\S+\)\n$/);
    },
  );

  it(
    'exits 4 printing the failed result and the error when the tool fails',
    { timeout: 60_000 },
    async () => {
      const run = runCli(env, [
        'call',
        '--server',
        'fixture',
        '--tool',
        'fail',
        '--args',
        '{"reason":"disk full"}',
        '--as',
        'U1',
      ]);
      const { code, stderr } = await run.done;
      expect(code).toBe(4);
      expect(JSON.parse(run.stdout())).toEqual({
        content: [{ type: 'text', text: 'disk full' }],
        isError: true,
      });
      expect(stderr).toContain('elicit-relay: the call failed: disk full');
    },
  );

  it('exits 2 for an unknown server (the API’s 400 names /server) and for a missing --as', async () => {
    const unknown = await runCli(env, ['call', '--server', 'nope', '--tool', 'echo', '--as', 'U1']).done;
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('400 invalid_request: /server: no MCP server named "nope"');
    const usage = await runCli(env, ['call', '--server', 'fixture', '--tool', 'echo']).done;
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--as is required');
  });
});
