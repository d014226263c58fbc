// API questions and calls in a bot installed in several Slack workspaces (OAuth distribution) name the
// workspace: `as.team` on a call, `team` on a question. A call then runs with that workspace in its origin (its
// messages go out with that workspace's token) and finds the person's grant to a server they sign in to, which
// is kept per workspace and person; a call without one is refused saying what to add, and a person who has not
// connected from that workspace is told how to. A bot serving one workspace needs no `team` and ignores one.
// Gateway tools at POST /mcp: test/api/gateway-workspaces. The bot: workspaces-bot.ts.
import { describe, expect, it } from 'vitest';
import { ONE, SEVERAL, startBot, stopBotsAfterEach } from './workspaces-bot.js';

stopBotsAfterEach();

const call = (as: Record<string, string>) => ({ server: 'tracker', tool: 'whoami', as });

describe('a bot installed in several workspaces', () => {
  it("runs a call as the person of the workspace it names, with that workspace's grant", async () => {
    const bot = await startBot(SEVERAL);
    await bot.connect({ teamId: 'T1', userId: 'UANN' });
    expect((await bot.post('/calls', call({ user: 'UANN', team: 'T1' }))).status).toBe(202);
    await expect.poll(() => bot.runs).toHaveLength(1);
    expect(bot.runs[0]).toMatchObject({ userId: 'UANN', teamId: 'T1' });
  });

  it('tells a person who connected only from another workspace how to connect from this one', async () => {
    const bot = await startBot(SEVERAL);
    await bot.connect({ teamId: 'T1', userId: 'UANN' });
    const reply = await bot.post('/calls', call({ user: 'UANN', team: 'T2' }));
    expect(reply.status).toBe(409);
    expect(reply.error).toMatchObject({ code: 'not_connected' });
    expect(reply.error?.message).toContain('/mcp connect tracker');
    expect(reply.error?.message).toContain('workspace T2');
    expect(bot.runs).toEqual([]);
  });

  it('refuses a call or a question that names no workspace, saying which field to add', async () => {
    const bot = await startBot(SEVERAL);
    await bot.connect({ teamId: 'T1', userId: 'UANN' });
    const calling = await bot.post('/calls', call({ user: 'UANN' }));
    expect(calling.status).toBe(400);
    expect(calling.error?.message).toMatch(/^\/as\/team: .*several Slack workspaces/);
    const asking = await bot.post('/questions', {
      message: 'Ship?',
      requestedSchema: {},
      to: { user: 'UANN' },
    });
    expect(asking.status).toBe(400);
    expect(asking.error?.message).toMatch(/^\/team: /);
    expect(bot.runs).toEqual([]);
    expect(bot.asked).toEqual([]);
  });

  it('asks a question in the workspace it names', async () => {
    const bot = await startBot(SEVERAL);
    const body = { message: 'Ship?', requestedSchema: {}, to: { user: 'UANN' }, team: 'T1' };
    expect((await bot.post('/questions', body)).status).toBe(201);
    expect(bot.asked).toEqual([{ userId: 'default', teamId: 'T1' }]);
  });
});

describe('a bot serving one workspace', () => {
  it("finds a person's grant without a team, and ignores one that is named", async () => {
    const bot = await startBot(ONE);
    await bot.connect({ teamId: '', userId: 'UANN' });
    expect((await bot.post('/calls', call({ user: 'UANN' }))).status).toBe(202);
    expect((await bot.post('/calls', call({ user: 'UANN', team: 'T9' }))).status).toBe(202);
    await expect.poll(() => bot.runs).toHaveLength(2);
    expect(bot.runs.map((origin) => origin.teamId)).toEqual([undefined, undefined]);
  });
});
