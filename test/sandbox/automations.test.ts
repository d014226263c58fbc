// The sandbox's Automations side without a browser: the commands its panel shows work as printed (run by a
// shell as child processes against the page's address), and its receiver checks each webhook's signature.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import {
  type Automations,
  type ReceivedWebhook,
  type RunningSandbox,
  startSandbox,
} from '../../src/sandbox/index.js';
import { TIMESTAMP_TOLERANCE_SEC, WebhookReceiver, sandboxApi } from '../../src/sandbox/automations.js';
import { signature } from '../../src/webhooks/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { newestCard, sandboxClient, type SandboxClient } from './client.js';

const ADA = 'U0ADA';
const CLI = new URL('../../src/cli.ts', import.meta.url).pathname;

type PanelState = { automations: Automations & { webhooks: ReceivedWebhook[] } };

/** Runs `line` with `sh -c`, as a person pasting it into a terminal; resolves with its exit and stdout. */
async function shell(line: string): Promise<{ code: number | null; stdout: string }> {
  const child = spawn('sh', ['-c', line], { stdio: ['ignore', 'pipe', 'ignore'] });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout };
}

describe('the sandbox Automations panel', () => {
  let sandbox: RunningSandbox;
  let page: SandboxClient;

  beforeAll(async () => {
    sandbox = await startSandbox({
      port: 0,
      redisUrl: redisUrl(),
      redisPrefix: uniquePrefix(),
      logger: createLogger('silent'),
    });
    page = sandboxClient(sandbox.url);
  });
  afterAll(async () => {
    await sandbox?.stop();
  });

  const panel = async (): Promise<PanelState['automations']> => {
    const res = await fetch(new URL(`/api/state?user=${ADA}&after=-1`, sandbox.url));
    return ((await res.json()) as PanelState).automations;
  };
  const getQuestion = async (id: string): Promise<Record<string, unknown>> => {
    const res = await fetch(`${sandbox.api.url}/questions/${id}`, {
      headers: { authorization: `Bearer ${sandbox.api.token}` },
    });
    return (await res.json()) as Record<string, unknown>;
  };

  it('the printed curl command, run by a shell, creates a pending question whose card reaches the person', async () => {
    const { curl } = await panel();
    expect(curl).toContain(`Bearer ${sandbox.api.token}`);
    const run = await shell(curl);
    expect(run.code).toBe(0);
    const created = JSON.parse(run.stdout) as { id: string; status: string };
    expect(created.status).toBe('pending');
    expect(await getQuestion(created.id)).toMatchObject({ id: created.id, status: 'pending' });
    const card = await page.until(ADA, (s) => newestCard(s));
    expect(card.text).toContain('Deploy web 1.4.2 to production?');
  });

  it('the printed elicit-relay ask command waits for the answer: a decline on the card exits 1 with {action: decline}', async () => {
    const { ask } = await panel();
    // The same flags; the checkout's entry point stands in for the built `npx elicit-relay`.
    const line = ask.replace('npx elicit-relay', `${process.execPath} --import tsx ${CLI}`);
    const before = await page.until(ADA, (s) => newestCard(s)?.ts ?? '');
    const running = shell(line);
    const card = await page.until(ADA, (s) => {
      const newest = newestCard(s);
      return newest?.ts !== undefined && newest.ts > before ? newest : undefined;
    });
    const click = await page.post('/api/click', {
      user: ADA,
      channel: card.channel,
      ts: card.ts,
      actionId: 'elicit_decline',
    });
    expect(click.json.status).toBe(200);
    const run = await running;
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual({ action: 'decline' });
  });

  it('lists a withdrawn question’s webhook as signed and a forged delivery as not verified', async () => {
    const { request } = await panel();
    const res = await fetch(new URL(request.path, sandbox.url), {
      method: 'POST',
      headers: { authorization: `Bearer ${request.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(request.body),
    });
    const { id } = (await res.json()) as { id: string };
    await fetch(`${sandbox.api.url}/questions/${id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${sandbox.api.token}` },
    });
    const signed = await page.until(ADA, (s) =>
      (s as unknown as PanelState).automations.webhooks.find((w) => w.id === id),
    );
    expect(signed).toMatchObject({ type: 'question.ended', status: 'cancelled', verified: true });
    expect(signed.deliveryId).toMatch(/^dlv_/);

    const forged = JSON.stringify({ type: 'question.ended', id: 'forged', status: 'accepted' });
    await fetch(String(request.body.callbackUrl), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-elicit-relay-timestamp': String(Math.floor(Date.now() / 1000)),
        'x-elicit-relay-signature': `v1=${'0'.repeat(64)}`,
        'x-elicit-relay-delivery': 'dlv_forged',
      },
      body: forged,
    });
    const listed = (await panel()).webhooks.find((w) => w.id === 'forged');
    expect(listed).toMatchObject({ deliveryId: 'dlv_forged', verified: false });
  });
});

describe('the sandbox API settings', () => {
  it('generate a token and a webhook secret per start and allow the receiver host', () => {
    const one = sandboxApi(undefined, '127.0.0.1:4000');
    const two = sandboxApi(undefined, '127.0.0.1:4000');
    expect(one.token).not.toBe(two.token);
    expect(one.secret).not.toBe(two.secret);
    expect(one.tokenFromEnv).toBe(false);
    expect(one.config).toMatchObject({
      clients: [{ name: 'default', token: one.token }],
      webhookHosts: ['127.0.0.1:4000'],
      webhookSecret: one.secret,
    });
  });

  it('keep ELICIT_RELAY_API_TOKEN, the named clients, the allowed hosts and the secret that are configured', () => {
    const configured = {
      clients: [
        { name: 'default', token: 'from-env' },
        { name: 'ci', token: 'ci-token' },
      ],
      webhookHosts: ['hooks.example.com'],
      webhookSecret: 'configured-secret',
    };
    const api = sandboxApi(configured, '127.0.0.1:4000');
    expect(api).toMatchObject({ token: 'from-env', tokenFromEnv: true, secret: 'configured-secret' });
    expect(api.config.clients).toEqual(configured.clients);
    expect(api.config.webhookHosts).toEqual(['hooks.example.com', '127.0.0.1:4000']);
  });
});

describe('the sandbox webhook receiver', () => {
  const NOW_MS = Date.UTC(2026, 11, 4, 9, 0, 0);
  const body = JSON.stringify({ type: 'question.ended', id: 'q1', status: 'accepted' });
  const headersAt = (secret: string, timestamp: number): Record<string, string> => ({
    'x-elicit-relay-timestamp': String(timestamp),
    'x-elicit-relay-signature': signature(secret, timestamp, body),
    'x-elicit-relay-delivery': 'dlv_1',
  });

  it('verifies a delivery signed with its secret within the tolerance, and lists it with its fields', () => {
    let changes = 0;
    const receiver = new WebhookReceiver('secret', () => (changes += 1));
    receiver.receive(headersAt('secret', NOW_MS / 1000 - TIMESTAMP_TOLERANCE_SEC), body, NOW_MS);
    expect(receiver.list()).toEqual([
      {
        deliveryId: 'dlv_1',
        type: 'question.ended',
        id: 'q1',
        status: 'accepted',
        verified: true,
        receivedAt: '2026-12-04T09:00:00.000Z',
      },
    ]);
    expect(changes).toBe(1);
  });

  it('does not verify another secret, a replayed (old) timestamp or a changed body', () => {
    const receiver = new WebhookReceiver('secret', () => undefined);
    receiver.receive(headersAt('other', NOW_MS / 1000), body, NOW_MS);
    receiver.receive(headersAt('secret', NOW_MS / 1000 - TIMESTAMP_TOLERANCE_SEC - 1), body, NOW_MS);
    receiver.receive(headersAt('secret', NOW_MS / 1000), body.replace('accepted', 'declined'), NOW_MS);
    expect(receiver.list().map((w) => w.verified)).toEqual([false, false, false]);
  });
});
