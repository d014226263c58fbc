// A question an automation asks a channel, as README's Automations example asks C0123APPROVALS: in the
// sandbox every channel has both people in it, so either answers from the channel's card.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DECLINE_ACTION } from '../../blocks/ids.js';
import { createLogger } from '../../src/logger.js';
import { type PersonState, type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { newestCard, sandboxClient, type SandboxClient } from './client.js';

const MEI = 'U0MEI';
const CHANNEL = 'C0123APPROVALS';

describe('a sandbox question to a channel', () => {
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

  const api = (path: string, init: RequestInit = {}): Promise<Response> =>
    fetch(`${sandbox.api.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${sandbox.api.token}`, 'content-type': 'application/json' },
    });

  it("is answered by a person in the sandbox from the channel's card (README's example, declined)", async () => {
    const created = await api('/questions', {
      method: 'POST',
      body: JSON.stringify({
        message: 'Deploy 4711 to prod?',
        to: { channel: CHANNEL },
        requestedSchema: {
          type: 'object',
          properties: { ok: { type: 'boolean', title: 'Ship it' } },
          required: ['ok'],
        },
      }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    // The channel is listed once the bot posted its card there.
    await page.until(MEI, (s) => (s.conversations.some((c) => c.id === CHANNEL) ? true : undefined));
    const shown = await fetch(new URL(`/api/state?user=${MEI}&after=-1&channel=${CHANNEL}`, sandbox.url));
    const card = newestCard((await shown.json()) as PersonState);
    expect(card?.ts).toBeDefined();

    const click = await page.post('/api/click', {
      user: MEI,
      channel: CHANNEL,
      ts: card?.ts,
      actionId: DECLINE_ACTION,
    });
    expect(click.status).toBe(200);
    const ended = await api(`/questions/${id}?wait=30`);
    expect(await ended.json()).toMatchObject({ status: 'declined', reason: 'declined', answeredBy: MEI });
  });
});
