// The sandbox end to end through its HTTP API, as the page drives it: the real bot, real Redis, the Slack
// stand-in and the example MCP servers; every action reaches the bot as a signed Slack request.
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import {
  type RunningSandbox,
  SLOW_TIMEOUT_MS,
  sandboxServers,
  startSandbox,
} from '../../src/sandbox/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import {
  blockLabelled,
  newestCard,
  resultAfter,
  resultText,
  sandboxClient,
  type SandboxClient,
} from './client.js';

const ADA = 'U0ADA';
const FIXTURE = fileURLToPath(new URL('../fixtures/elicit-server.ts', import.meta.url));
const MEI = 'U0MEI';

describe('sandbox', () => {
  let sandbox: RunningSandbox;
  let api: SandboxClient;

  beforeAll(async () => {
    // The slow example's question expires after 1 s here, so the timeout shows without a long wait.
    const slow = sandboxServers().find((s) => s.name === 'slow');
    if (!slow) throw new Error('no slow example server');
    sandbox = await startSandbox({
      port: 0,
      redisUrl: redisUrl(),
      redisPrefix: uniquePrefix(),
      logger: createLogger('silent'),
      extraServers: [
        { ...slow, elicitationTimeoutMs: 1000 },
        {
          name: 'fixture',
          transport: {
            kind: 'stdio',
            command: process.execPath,
            args: ['--import', 'tsx', FIXTURE],
            env: {},
          },
          elicitationTimeoutMs: 60_000,
          elicitationMode: 'form',
        },
      ],
    });
    api = sandboxClient(sandbox.url);
  });
  afterAll(async () => {
    await sandbox?.stop();
  });

  async function run(user: string, text: string) {
    const before = await api.until(user, (s) => s);
    const sent = await api.post('/api/command', { user, text });
    expect(sent.json.status).toBe(200);
    const seen = new Set(before.timeline.map((m) => m.ts));
    return api.until(user, (s) => {
      const card = newestCard(s);
      return card && !seen.has(card.ts) ? card : undefined;
    });
  }

  async function respond(user: string, card: { channel: string; ts?: string }) {
    const click = await api.post('/api/click', {
      user,
      channel: card.channel,
      ts: card.ts,
      actionId: 'elicit_respond',
    });
    expect(click.json.status).toBe(200);
    return api.until(user, (s) => (s.views.length > 0 ? s : undefined));
  }

  it('shows long tool output as the snippet file the bot shared, with its content', async () => {
    const sent = await api.post('/api/command', { user: ADA, text: '/mcp run fixture lines {"count": 50}' });
    expect(sent.json.status).toBe(200);
    const file = await api.until(ADA, (s) => s.timeline.find((m) => m.files?.length)?.files?.[0]);
    expect(file.title).toBe('lines (fixture)');
    expect(file.content.split('\n')).toHaveLength(50);
  });

  it('runs the example servers from files that exist, with a short timeout for slow', () => {
    const servers = sandboxServers();
    expect(servers.map((s) => s.name)).toEqual(['forms', 'approvals', 'slow']);
    for (const { transport } of servers) {
      if (transport.kind !== 'stdio') throw new Error('examples run over stdio');
      expect(existsSync(transport.args.at(-1) ?? '')).toBe(true);
    }
    expect(servers.find((s) => s.name === 'slow')?.elicitationTimeoutMs).toBe(SLOW_TIMEOUT_MS);
  });

  it('serves the page with only local assets', async () => {
    const html = await (await fetch(sandbox.url)).text();
    expect(html).toContain('src="/app.js"');
    expect(html).toContain('href="/style.css"');
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? '');
    const page = new URL('../../src/sandbox/page/', import.meta.url);
    const modules = readdirSync(page)
      .filter((file) => file !== 'index.html')
      .map((file) => `/${file}`);
    for (const path of ['/', ...assets, ...modules]) {
      const res = await fetch(new URL(path, sandbox.url));
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text).not.toMatch(/(src|href)\s*=\s*["']?(https?:)?\/\//i);
      expect(text).not.toMatch(/@import|url\(\s*["']?https?:|fetch\(\s*["']https?:/i);
    }
    expect((await fetch(new URL('/app.js', sandbox.url))).headers.get('content-type')).toMatch(/javascript/);
  });

  it('answers the bot’s probes and metrics on the page’s address, as on PORT in every mode', async () => {
    const at = (path: string) => fetch(new URL(path, sandbox.url));
    expect(await (await at('/healthz')).json()).toEqual({ ok: true });
    expect((await at('/readyz')).status).toBe(200);
    const metrics = await at('/metrics');
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('elicit_relay_redis_up 1');
  });

  it('runs a forms tool from /mcp run: card, Respond, field error, fix, card updated and the result', async () => {
    const card = await run(ADA, '/mcp run forms basics {}');
    expect(card.issues).toEqual([]);
    const opened = await respond(ADA, card);
    const [view] = opened.views;
    expect(view?.issues).toEqual([]);
    const email = blockLabelled(opened, 'Email');
    const values = { [blockLabelled(opened, 'Your name')]: 'Grace', [blockLabelled(opened, 'Seats')]: '3' };
    const bad = await api.post('/api/submit', {
      user: ADA,
      viewId: view?.id,
      values: { ...values, [email]: 'nope' },
    });
    expect(bad.json.ack).toMatchObject({ response_action: 'errors' });
    const errors = await api.until(ADA, (s) => s.views[0]?.errors[email]);
    expect(errors).toEqual(expect.any(String));
    const good = await api.post('/api/submit', {
      user: ADA,
      viewId: view?.id,
      values: { ...values, [email]: 'g@example.com' },
    });
    expect(good.json).toEqual({ status: 200 });
    const result = await api.until(ADA, resultAfter(card.ts ?? ''));
    const content = JSON.parse(resultText(result)) as unknown;
    expect(content).toMatchObject({
      action: 'accept',
      content: { name: 'Grace', email: 'g@example.com', seats: 3 },
    });
    const updated = await api.until(ADA, (s) => s.timeline.find((m) => m.ts === card.ts && m.updates > 0));
    expect(JSON.stringify(updated.blocks)).not.toContain('elicit_respond');
    expect(await api.until(ADA, (s) => (s.views.length === 0 ? true : undefined))).toBe(true);
  });

  it('shows the zh-CN person a Chinese card, and relays their Decline to the approvals tool', async () => {
    const card = await run(MEI, '/mcp run approvals deploy {"service": "api"}');
    expect(JSON.stringify(card.blocks)).toMatch(/[\u4e00-\u9fff]/);
    const click = await api.post('/api/click', {
      user: MEI,
      channel: card.channel,
      ts: card.ts,
      actionId: 'elicit_decline',
    });
    expect(click.json.status).toBe(200);
    const result = await api.until(MEI, resultAfter(card.ts ?? ''));
    expect(resultText(result)).toContain('Not deployed: the approver declined.');
  });

  it('relays cancel when the person closes the form', async () => {
    const card = await run(ADA, '/mcp run forms choices {}');
    const opened = await respond(ADA, card);
    const closed = await api.post('/api/close', { user: ADA, viewId: opened.views[0]?.id });
    expect(closed.json.status).toBe(200);
    const result = await api.until(ADA, resultAfter(card.ts ?? ''));
    expect(JSON.parse(resultText(result))).toEqual({ action: 'cancel' });
  });

  it('times out an unanswered question of the slow server and updates its card', async () => {
    const card = await run(MEI, '/mcp run slow ask {}');
    const result = await api.until(MEI, resultAfter(card.ts ?? ''));
    expect(JSON.parse(resultText(result))).toEqual({ action: 'cancel' });
    const updated = await api.until(MEI, (s) => s.timeline.find((m) => m.ts === card.ts && m.updates > 0));
    expect(JSON.stringify(updated.blocks)).not.toContain('elicit_respond');
  });

  it('answers a slash command ack to that person only, and refuses unknown people and bad bodies', async () => {
    await api.post('/api/command', { user: MEI, text: '/mcp servers' });
    const note = await api.until(MEI, (s) =>
      s.timeline.find((m) => m.kind === 'ephemeral' && m.text?.includes('forms')),
    );
    expect(note.text).toContain('slow');
    const ada = await api.until(ADA, (s) => s);
    expect(ada.timeline.some((m) => m.text?.includes('MCP servers'))).toBe(false);
    expect((await api.post('/api/command', { user: 'U0NOBODY', text: '/mcp help' })).status).toBe(422);
    expect((await api.post('/api/command', { user: ADA, text: 'hello' })).json.error).toBe('not_a_command');
    expect((await fetch(new URL('/api/state?user=U0NOBODY', sandbox.url))).status).toBe(404);
  });
});
