// A person's questions that reach the bot together (a tool eliciting 10 times at once) share one
// conversations.open (Tier 3) and one users.info (Tier 4) instead of making one each before the first answer
// is cached; a failed lookup is not kept.
import { webApi } from '@slack/bolt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Audience } from '../../src/slack/audience.js';
import { Locales } from '../../src/slack/locales.js';
import { Outbox } from '../../src/slack/outbox/index.js';
import { SharedLookup } from '../../src/slack/shared-lookup.js';
import { SlackSurface } from '../../src/slack/surface.js';
import { singleWorkspace } from '../../src/slack/workspaces.js';
import { startSlackStandin, type SlackStandin } from '../../src/standin/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';

const TOKEN = 'xoxb-shared-lookups';
const AT_ONCE = 10;

let standin: SlackStandin;
let outbox: Outbox;
let surface: SlackSurface;

beforeAll(async () => {
  standin = await startSlackStandin({ botToken: TOKEN });
  const clients = singleWorkspace(new webApi.WebClient(TOKEN, { slackApiUrl: standin.apiUrl }));
  outbox = await Outbox.open({ url: redisUrl(), prefix: uniquePrefix() });
  surface = new SlackSurface(clients, new Locales(clients), outbox, new Audience(clients));
});
afterAll(async () => {
  await outbox.close();
  await standin.close();
});

const callsOf = (method: string, user: string) =>
  standin.calls.filter((c) => c.method === method && JSON.stringify(c.args).includes(user));

describe('lookups made together', () => {
  it("open a person's DM with one conversations.open", async () => {
    const dms = await Promise.all(
      Array.from({ length: AT_ONCE }, () => surface.dmOf('U0TOGETHER', undefined)),
    );
    expect(new Set(dms)).toEqual(new Set([standin.dmChannelOf('U0TOGETHER')]));
    expect(callsOf('conversations.open', 'U0TOGETHER')).toHaveLength(1);
  });

  it("read a person's locale with one users.info", async () => {
    const locales = await Promise.all(
      Array.from({ length: AT_ONCE }, () => surface.locales.of('U0LOCALE', 'T0STANDIN')),
    );
    expect(new Set(locales).size).toBe(1);
    expect(callsOf('users.info', 'U0LOCALE')).toHaveLength(1);
  });

  it('ask again after a lookup failed', async () => {
    const shared = new SharedLookup<string>();
    const failed = shared.get('k', () => Promise.reject(new Error('slack down')));
    const sharing = shared.get('k', () => Promise.resolve('not asked'));
    await expect(failed).rejects.toThrow('slack down');
    await expect(sharing).rejects.toThrow('slack down');
    await expect(shared.get('k', () => Promise.resolve('asked again'))).resolves.toBe('asked again');
  });
});
