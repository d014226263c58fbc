// A Connect message whose link can no longer connect anything must not keep a live-looking Connect button: once
// the person refused at the sign-in page (`denied`), once the code its callback brought was refused
// (`token_exchange_failed`), once its link's 10 minutes ran out (an expiry sweep on any replica), and once a
// sign-in completed while it was still being posted. Each message then says what happened and how to try again,
// in the person's language, with no second message posted. The bot's Slack side as composed (createSlack) with the
// real MCP sign-in behind it: the sandbox's authorization server, the vault in the run's Redis, Slack's stand-in
// (connect-messages.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Person } from '../../src/mcp/index.js';
import { hasButton, startConnectMessages, TEAM, updated, type ConnectMessages } from './connect-messages.js';

const person = (userId: string): Person => ({ teamId: TEAM, userId });
const [ANN, BEN, CAT, DAN, EVE] = [
  person('U0ANN'),
  person('U0BEN'),
  person('U0CAT'),
  person('U0DAN'),
  person('U0EVE'),
];
/** A link lives 10 minutes (STATE_TTL_SEC); the sweep runs every 15 s. Past both, in ms (the last test's). */
const PAST_EXPIRY_MS = 10 * 60_000 + 30_000;

let bot: ConnectMessages;

beforeAll(async () => {
  bot = await startConnectMessages({
    U0ANN: 'en-US',
    U0BEN: 'en-US',
    U0CAT: 'zh-CN',
    U0DAN: 'en-US',
    U0EVE: 'en-US',
  });
});

afterAll(async () => {
  await bot.close();
});

describe('a Connect message whose sign-in was refused at the callback', () => {
  it('says access was not granted (denied) and how to try again, its button gone', async () => {
    const need = await bot.link(ANN);
    const message = await bot.prompt(need);
    expect(hasButton(message), 'the Connect message starts with its button').toBe(true);
    const page = await bot.signIn(need, 'deny');
    expect(page.status).toBe(400);
    const now = await updated(bot.standin, message);
    expect(now?.text, 'the message says the sign-in was refused').toContain(
      'Access to tracker was not granted at its sign-in page',
    );
    expect(now?.text, 'and how to try again').toContain('`/mcp connect tracker`');
    expect(hasButton(now), 'its Connect button, leading to a spent link, is gone').toBe(false);
    expect(bot.dm(ANN), 'no second message').toHaveLength(1);
  });

  it('says the sign-in did not complete when its code was refused (token_exchange_failed)', async () => {
    const need = await bot.link(BEN);
    const message = await bot.prompt(need);
    const redirect = await bot.fixture.oauth.decide(need.authorizationUrl, 'ben@example.com');
    const query = new URLSearchParams(redirect.searchParams);
    query.set('code', 'a-code-the-server-never-issued');
    const page = await bot.callback(query);
    expect(await page.text()).toContain('data-code="token_exchange_failed"');
    const now = await updated(bot.standin, message);
    expect(now?.text).toContain('Signing in to tracker did not complete');
    expect(hasButton(now)).toBe(false);
  });

  it("leaves the person's other Connect message, whose link still works, as it is", async () => {
    const first = await bot.link(DAN);
    const firstMessage = await bot.prompt(first);
    // A wider sign-in (a step-up) posts a message of its own beside the first.
    const wider = await bot.link(DAN);
    const widerMessage = await bot.prompt({ ...wider, scopes: [...first.scopes, 'reports'] });
    await bot.signIn(wider, 'deny');
    expect(hasButton(await updated(bot.standin, widerMessage))).toBe(false);
    expect(hasButton(bot.standin.message(firstMessage.channel, firstMessage.ts))).toBe(true);
    // The first link still connects: its message becomes "Connected".
    expect((await bot.signIn(first, 'allow')).status).toBe(200);
    expect((await updated(bot.standin, firstMessage))?.text).toContain('Connected to tracker');
  });
});

describe('a Connect message whose link expired', () => {
  it("says so in the person's language once the sweep runs past its 10 minutes; a connected one stays", async () => {
    const done = await bot.link(EVE);
    const doneMessage = await bot.prompt(done);
    expect((await bot.signIn(done, 'allow')).status).toBe(200);
    const connected = await updated(bot.standin, doneMessage);
    const need = await bot.link(CAT);
    const message = await bot.prompt(need);
    await bot.clock.advance(PAST_EXPIRY_MS);
    const now = await updated(bot.standin, message);
    expect(now?.text, 'Chinese for a zh-CN reader').toContain('此用于连接 tracker 的链接已过期');
    expect(now?.text).toContain('`/mcp connect tracker`');
    expect(hasButton(now)).toBe(false);
    expect(bot.dm(CAT)).toHaveLength(1);
    // Stopping waits for the sweep under way, the one that read both messages as due.
    await bot.part.slack.stop();
    expect(bot.standin.message(doneMessage.channel, doneMessage.ts), '"Connected" stays').toMatchObject({
      text: connected?.text,
      updates: 1,
    });
  });
});
