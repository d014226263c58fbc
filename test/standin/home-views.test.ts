// The stand-in's views.publish keeps each person's Home as Slack does: one per workspace that installed the app
// (an Enterprise Grid user, one W… id, has one in each), and its `hash` argument guards a publish: the hash of
// the Home's last publish replaces it (with a new hash), any other answers `hash_conflict` and leaves the Home
// (docs.slack.dev/reference/methods/views.publish: "the provided hash doesn't match the current stored value").
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type SlackStandin, startSlackStandin } from '../../src/standin/index.js';
import { BOT_TOKEN, callApi } from './helpers.js';

const APP = {
  clientId: '3333.4444',
  clientSecret: 'standin-home-secret',
  redirectUrl: 'https://bot.test/cb',
};
const TEAM_B = 'T0HOMEB';
const USER = 'W0GRID';

let standin: SlackStandin;
beforeEach(async () => {
  standin = await startSlackStandin({ botToken: BOT_TOKEN, oauth: APP, workspaces: [{ teamId: TEAM_B }] });
});
afterEach(() => standin.close());

const home = (text: string) => ({
  type: 'home',
  blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }],
});

const publish = (text: string, extra: Record<string, unknown> = {}, token = BOT_TOKEN) =>
  callApi(standin, 'views.publish', { user_id: USER, view: home(text), ...extra }, { token });

const hashOf = (body: Record<string, unknown>): string => String((body.view as { hash: unknown }).hash);

/** The bot token of an install of the app in `teamId`. */
async function installIn(teamId: string): Promise<string> {
  const authorize = `https://slack.test/oauth/v2/authorize?client_id=${APP.clientId}&scope=chat:write`;
  const code = new URL(standin.oauth.approve(authorize, { teamId, userId: 'UADMIN' })).searchParams.get(
    'code',
  );
  const access = await callApi(
    standin,
    'oauth.v2.access',
    { client_id: APP.clientId, client_secret: APP.clientSecret, code },
    { token: null },
  );
  return String(access.body.access_token);
}

describe('Slack stand-in: views.publish', () => {
  it('replaces the Home when given its current hash, and refuses an older hash hash_conflict', async () => {
    const first = await publish('First');
    const second = await publish('Second', { hash: hashOf(first.body) });
    expect(second.body).toMatchObject({ ok: true, view: { type: 'home' } });
    expect(hashOf(second.body)).not.toBe(hashOf(first.body));

    const stale = await publish('Stale', { hash: hashOf(first.body) });
    expect(stale.body).toEqual({ ok: false, error: 'hash_conflict' });
    expect(standin.homeOf(USER)).toEqual(second.body.view);
    // Without a hash a publish is not guarded.
    expect((await publish('Unguarded')).body.ok).toBe(true);
  });

  it('keeps a person’s Home per workspace: another workspace’s publish neither replaces it nor moves its hash', async () => {
    const own = await publish('In the own workspace');
    const tokenB = await installIn(TEAM_B);
    const inB = await publish('In B', {}, tokenB);
    expect(inB.body).toMatchObject({ ok: true, view: { team_id: TEAM_B } });

    expect(standin.homeOf(USER)).toEqual(own.body.view);
    expect(standin.homeOf(USER, TEAM_B)).toEqual(inB.body.view);
    expect((await publish('Own again', { hash: hashOf(own.body) })).body.ok).toBe(true);
    expect((await publish('B again', { hash: hashOf(inB.body) }, tokenB)).body.ok).toBe(true);
  });
});
