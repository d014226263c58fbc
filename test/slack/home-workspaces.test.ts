// App Home of a person in two workspaces that installed the app (an Enterprise Grid user: one W… id in both),
// through the real HomeTab and SlackState on real Redis, against the stand-in serving both workspaces: each
// workspace's Home lists that workspace's answers, however many the person gave in the other.
import { webApi } from '@slack/bolt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HOME_RECENT_MAX } from '../../blocks/index.js';
import { HomeTab } from '../../src/slack/home.js';
import { SlackState } from '../../src/slack/state/index.js';
import type { SlackClients } from '../../src/slack/workspaces.js';
import { startSlackStandin, type SlackStandin } from '../../src/standin/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { question } from '../support/question.js';
import { rawRedis } from '../store/helpers.js';
import { standinClient } from './standin-client.js';

const BOT_TOKEN = 'xoxb-home-workspaces';
const OAUTH = { clientId: '111.222', clientSecret: 'home-workspaces-secret' };
const TEAM_B = 'T0B';
const GRID_USER = 'W0GRID';

let standin: SlackStandin;
let state: SlackState;
let prefix: string;
let clients: SlackClients;
const errors: object[] = [];

/** Installs the app in `teamId` as Slack's OAuth would, and gives a client with that workspace's bot token. */
async function installIn(teamId: string): Promise<webApi.WebClient> {
  const authorize = `https://slack.test/oauth/v2/authorize?client_id=${OAUTH.clientId}&scope=chat:write`;
  const back = standin.oauth.approve(`${authorize}&redirect_uri=https://bot.test/cb`, {
    teamId,
    userId: `UADMIN${teamId}`,
  });
  const code = new URL(back).searchParams.get('code') ?? '';
  const access = await new webApi.WebClient(undefined, { slackApiUrl: standin.apiUrl }).oauth.v2.access({
    client_id: OAUTH.clientId,
    client_secret: OAUTH.clientSecret,
    code,
    redirect_uri: 'https://bot.test/cb',
  });
  return standinClient(standin, access.access_token ?? '');
}

beforeEach(async () => {
  standin = await startSlackStandin({
    botToken: BOT_TOKEN,
    oauth: OAUTH,
    workspaces: [{ teamId: TEAM_B, teamDomain: 'second' }],
  });
  prefix = uniquePrefix();
  state = await SlackState.open({ url: redisUrl(), prefix, holderId: 'h1' });
  const own = standinClient(standin, BOT_TOKEN);
  const second = await installIn(TEAM_B);
  clients = { for: (teamId) => Promise.resolve(teamId === TEAM_B ? second : own) };
  errors.length = 0;
});
afterEach(async () => {
  await state.close();
  await standin.close();
});

/** A replica's App Home: `work` runs on it, then it closes once its refreshes are done. */
async function onReplica(work: (tab: HomeTab) => void | Promise<void>): Promise<void> {
  const tab = new HomeTab({
    clients,
    pendingFor: () => Promise.resolve([]),
    history: state,
    hashes: state,
    locales: { of: () => Promise.resolve('en') },
    logger: { error: (obj) => errors.push(obj), info: () => undefined },
  });
  await work(tab);
  await tab.close();
}

const answered = (teamId: string, n: number) =>
  question({
    id: `q-${teamId}-${n}`,
    message: `Answered in ${teamId} #${n}`,
    userId: GRID_USER,
    origin: { userId: GRID_USER, teamId },
    state: 'accepted',
    reason: 'answered',
  });

/** The view of the person's last Home publish Slack accepted from workspace `teamId`. */
const homeShown = (teamId: string): string =>
  JSON.stringify(
    standin.calls.findLast(
      (c) => c.method === 'views.publish' && c.ok && c.teamId === teamId && c.args.user_id === GRID_USER,
    )?.args.view ?? null,
  );

describe('App Home recent answers of a person in two workspaces', () => {
  it('keeps each workspace’s own: ten answers in one leave the other’s Home its answer, and none of theirs', async () => {
    const teamA = standin.identity.teamId;
    await onReplica((tab) => tab.ended(answered(TEAM_B, 1), GRID_USER));
    await onReplica((tab) => {
      for (let n = 1; n <= HOME_RECENT_MAX; n++) tab.ended(answered(teamA, n), GRID_USER);
    });
    await onReplica(async (tab) => {
      await tab.refresh(GRID_USER, TEAM_B);
      await tab.refresh(GRID_USER, teamA);
    });
    expect(homeShown(TEAM_B)).toContain(`Answered in ${TEAM_B} #1`);
    expect(homeShown(TEAM_B)).not.toContain(`Answered in ${teamA}`);
    for (let n = 1; n <= HOME_RECENT_MAX; n++)
      expect(homeShown(teamA)).toContain(`Answered in ${teamA} #${n}`);
    expect(homeShown(teamA)).not.toContain(`Answered in ${TEAM_B}`);
    expect(errors).toEqual([]);
  });

  it('never shows a list of the older one-list-per-person layout, and refreshes the Home all the same', async () => {
    // What a replica of the older version wrote during a rolling upgrade: one list for every workspace, an
    // entry of a one-workspace question carrying no workspace at all.
    const older = (id: string, extra: object) =>
      JSON.stringify({
        questionId: id,
        server: 'srv',
        message: `Older ${id}`,
        state: 'accepted',
        reason: 'answered',
        at: 1,
        mode: 'form',
        ...extra,
      });
    await rawRedis().lpush(
      `${prefix}:slack:history:${GRID_USER}`,
      older('q-old-a', { teamId: standin.identity.teamId }),
      older('q-old-none', {}),
    );
    await onReplica((tab) => tab.refresh(GRID_USER, TEAM_B));
    expect(homeShown(TEAM_B)).toContain('No answers yet.');
    expect(homeShown(TEAM_B)).not.toContain('Older');
    expect(await state.recentAnswers({ teamId: TEAM_B, userId: GRID_USER })).toEqual([]);
    expect(errors).toEqual([]);
  });
});
