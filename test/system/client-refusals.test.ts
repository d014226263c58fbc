// `elicit-relay ask` as a child process against a running bot, refused by the API: PRODUCT's "2 on a usage
// error, 4 on any other error" by the API's error code. Before, every 400 exited 2, `no_answerers` too (the
// user group named has nobody in it now: a state of the workspace, not a command line typed wrong). What the
// person typed wrong (a message over the API's limit, a schema the form engine cannot show, a --schema file
// over the 1 MB body limit) exits 2; the rest (no answerers, a target the token's client may not ask, a wrong
// token) exits 4; stderr says which refusal it was.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './child.js';
import { startHarness, type Harness } from './harness.js';

const TOKEN = 'api-token-client-refusals-0123456789';
const DEPLOYS_TOKEN = 'api-token-deploys-only-0123456789';

describe('elicit-relay ask refused by the API', () => {
  let h: Harness;
  let env: Record<string, string>;
  let dir: string;
  beforeAll(async () => {
    h = await startHarness({
      replicas: 1,
      env: { ELICIT_RELAY_API_TOKEN: TOKEN },
      workspace: { usergroups: { S0EMPTY: [] } },
      config: { api: { clients: { deploys: { token: DEPLOYS_TOKEN, targets: ['C0DEPLOYS'] } } } },
    });
    env = { ELICIT_RELAY_URL: `http://127.0.0.1:${h.replicas[0]?.port}`, ELICIT_RELAY_API_TOKEN: TOKEN };
    dir = await mkdtemp(join(tmpdir(), 'elicit-relay-refusals-'));
  });
  afterAll(async () => {
    await h.close();
    await rm(dir, { recursive: true, force: true });
  });

  const ask = (...args: string[]) => runCli(env, ['ask', ...args]).done;

  it('exits 4 naming no_answerers when the user group has nobody in it', { timeout: 60_000 }, async () => {
    const { code, stderr } = await ask('--message', 'Anyone?', '--to', 'S0EMPTY');
    expect(stderr).toContain('elicit-relay: 400 no_answerers:');
    expect(code).toBe(4);
  });

  it(
    "exits 4 naming forbidden when the token's client may not ask that target",
    { timeout: 60_000 },
    async () => {
      const { code, stderr } = await runCli({ ...env, ELICIT_RELAY_API_TOKEN: DEPLOYS_TOKEN }, [
        'ask',
        '--message',
        'Ship?',
        '--to',
        'U1',
      ]).done;
      expect(stderr).toContain('elicit-relay: 403 forbidden:');
      expect(code).toBe(4);
    },
  );

  it('exits 2 naming invalid_request for a message over the API’s limit', { timeout: 60_000 }, async () => {
    const { code, stderr } = await ask('--message', 'x'.repeat(10_001), '--to', 'U1');
    expect(stderr).toContain('elicit-relay: 400 invalid_request: /message');
    expect(code).toBe(2);
  });

  it(
    'exits 2 naming invalid_schema for a schema the form engine cannot show',
    { timeout: 60_000 },
    async () => {
      const nested = { type: 'object', properties: { where: { type: 'object', properties: {} } } };
      const { code, stderr } = await ask(
        '--message',
        'Where?',
        '--to',
        'U1',
        '--schema',
        JSON.stringify(nested),
      );
      expect(stderr).toContain('elicit-relay: 400 invalid_schema:');
      expect(code).toBe(2);
    },
  );

  it('exits 2 naming payload_too_large for a --schema file over 1 MB', { timeout: 60_000 }, async () => {
    const file = join(dir, 'huge.json');
    const properties = { note: { type: 'string', description: 'd'.repeat(1_100_000) } };
    await writeFile(file, JSON.stringify({ type: 'object', properties }));
    const { code, stderr } = await ask('--message', 'Big?', '--to', 'U1', '--schema', file);
    expect(stderr).toContain('elicit-relay: 413 payload_too_large:');
    expect(code).toBe(2);
  });
});
