// `elicit-relay ask` as a child process against a running bot (real Redis, real HTTP, the Slack stand-in):
// the card is posted, the answer decides the exit code and what is printed.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './child.js';
import { inputLabelled, openForm, startHarness, type Harness } from './harness.js';

const TOKEN = 'api-token-client-0123456789';

describe('elicit-relay ask against a running bot', () => {
  let h: Harness;
  let url: string;
  beforeAll(async () => {
    h = await startHarness({ replicas: 1, env: { ELICIT_RELAY_API_TOKEN: TOKEN } });
    url = `http://127.0.0.1:${h.replicas[0]?.port}`;
  });
  afterAll(async () => {
    await h.close();
  });

  /** The stand-in's card whose text carries `message`, once posted. */
  async function cardOf(message: string): Promise<{ channel: string; ts: string }> {
    const call = await h.standin.waitForCall(
      'chat.postMessage',
      (c) => c.ok && JSON.stringify(c.args.blocks ?? '').includes(message),
      30_000,
    );
    const channel = String(call.args.channel);
    const posted = h.standin.messagesIn(channel).find((m) => JSON.stringify(m.blocks).includes(message));
    return { channel, ts: posted?.ts ?? '' };
  }

  it('exits 1 and prints the decline when the person declines', { timeout: 60_000 }, async () => {
    const run = runCli({}, [
      'ask',
      '--message',
      'Ship build 17?',
      '--to',
      'U1',
      '--url',
      url,
      '--token',
      TOKEN,
    ]);
    const card = await cardOf('Ship build 17?');
    await h.driver.clickButton({ userId: 'U1', ...card, actionId: 'elicit_decline' });
    const { code, stderr } = await run.done;
    expect(code).toBe(1);
    expect(JSON.parse(run.stdout())).toEqual({ action: 'decline' });
    expect(stderr).toMatch(/^elicit-relay: waiting for an answer to question \S+\n$/);
  });

  it(
    'leaves one created and one ended event in GET /api/v1/audit, oldest first',
    { timeout: 60_000 },
    async () => {
      const since = new Date(Date.now() - 60_000).toISOString();
      const response = await fetch(`${url}/api/v1/audit?since=${since}&client=default`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(response.status).toBe(200);
      const { events } = (await response.json()) as { events: { type: string; question?: string }[] };
      const declined = events.filter((e) => e.type.startsWith('question.')).slice(0, 2);
      expect(declined).toMatchObject([
        { type: 'question.created', client: 'default', user: 'U1' },
        {
          type: 'question.ended',
          client: 'default',
          action: 'decline',
          reason: 'declined',
          answeredBy: 'U1',
        },
      ]);
      expect(declined[0]?.question).toBe(declined[1]?.question);
      const bad = await fetch(`${url}/api/v1/audit?since=yesterday`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(bad.status).toBe(400);
    },
  );

  it(
    'exits 3 and prints the cancel when nobody answers before the timeout',
    { timeout: 60_000 },
    async () => {
      const args = ['ask', '--message', 'Nobody home?', '--to', 'U1', '--timeout', '2s'];
      const run = runCli({ ELICIT_RELAY_URL: url, ELICIT_RELAY_API_TOKEN: TOKEN }, args);
      await cardOf('Nobody home?');
      expect((await run.done).code).toBe(3);
      expect(JSON.parse(run.stdout())).toEqual({ action: 'cancel' });
    },
  );

  it(
    'exits 4 naming the refusal when the token is wrong, and 2 on a usage error',
    { timeout: 60_000 },
    async () => {
      const wrong = await runCli({}, ['ask', '--message', 'm', '--to', 'U1', '--url', url, '--token', 'nope'])
        .done;
      expect(wrong.code).toBe(4);
      expect(wrong.stderr).toMatch(/^elicit-relay: 401 unauthorized/);
      const usage = await runCli({ ELICIT_RELAY_URL: url, ELICIT_RELAY_API_TOKEN: TOKEN }, [
        'ask',
        '--to',
        'U1',
      ]).done;
      expect(usage.code).toBe(2);
      expect(usage.stderr).toContain('--message is required');
    },
  );

  it(
    'exits 0 and prints the typed answer when the person accepts, the schema read from a file',
    { timeout: 60_000 },
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'elicit-relay-ask-'));
      const schemaFile = join(dir, 'schema.json');
      await writeFile(
        schemaFile,
        JSON.stringify({
          type: 'object',
          properties: {
            why: { type: 'string', title: 'Why' },
            replicas: { type: 'integer', title: 'Replicas' },
          },
          required: ['why', 'replicas'],
        }),
      );
      const env = { ELICIT_RELAY_URL: url, ELICIT_RELAY_API_TOKEN: TOKEN };
      const run = runCli(env, ['ask', '--message', 'Scale build 18?', '--to', 'U1', '--schema', schemaFile]);
      const viewId = await openForm(h, 'U1', await cardOf('Scale build 18?'));
      const values = {
        [inputLabelled(h, viewId, 'Why')]: 'load',
        [inputLabelled(h, viewId, 'Replicas')]: '3',
      };
      expect((await h.driver.submitView({ userId: 'U1', viewId, values })).status).toBe(200);
      const { code } = await run.done;
      await rm(dir, { recursive: true });
      expect(code).toBe(0);
      expect(JSON.parse(run.stdout())).toEqual({ action: 'accept', content: { why: 'load', replicas: 3 } });
    },
  );
});
