// Attacks on each workspace's link to its Enterprise Grid org (org-links.ts), against real Redis: a request
// through one org's installation naming a workspace another org's grant linked, a grant Slack delivers only after
// a later revocation (its first delivery lost with a replica), a grant processed after a later revocation on
// another replica, and a grant for an org whose installation is gone.
import { LogLevel, type EnvelopedEvent, type Installation } from '@slack/bolt';
import type { SlackEvent } from '@slack/types';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distributedApp } from '../../src/slack/oauth.js';
import { RedisInstallationStore } from '../../src/slack/state/index.js';
import { Uninstalls, type OrgAccessChange } from '../../src/slack/uninstalls.js';
import { OrgLinks } from '../../src/slack/workspaces.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';

const ORG_A = 'E0ATTACKA';
const ORG_B = 'E0ATTACKB';

const orgInstallation = (org: string): Installation<'v2', true> => ({
  team: undefined,
  enterprise: { id: org, name: org },
  user: { id: 'W0ADMIN', token: undefined, scopes: undefined },
  bot: { id: 'B1', userId: 'W0BOT', token: `xoxb-${org}`, scopes: ['chat:write'] },
  isEnterpriseInstall: true,
  appId: 'A1',
  tokenType: 'bot',
  authVersion: 'v2',
});

const quiet = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  debug: () => undefined,
  setLevel: () => undefined,
  getLevel: () => LogLevel.INFO,
  setName: () => undefined,
};

/** `event` in its envelope through org `org`'s installation, with `teamId` as its team. */
const envelope = (event: SlackEvent, org: string, teamId: string): EnvelopedEvent<SlackEvent> => ({
  token: 'verification',
  team_id: teamId,
  enterprise_id: org,
  api_app_id: 'A1',
  event,
  type: 'event_callback',
  event_id: `Ev0${event.type}`,
  event_time: 1_700_000_000,
});

const change = (
  event: OrgAccessChange['event'],
  enterpriseId: string,
  teamId: string,
  eventTime: number,
): OrgAccessChange => ({ event, enterpriseId, teamIds: [teamId], eventTime });

describe("a workspace's org link under attack", () => {
  let redis: Redis;
  beforeAll(() => {
    redis = new Redis(redisUrl());
  });
  afterAll(async () => {
    await redis.quit();
  });

  /** Two replicas' Uninstalls over one Redis, with the questions each ended. */
  function replicas(now: () => number) {
    const installations = new RedisInstallationStore(redis, uniquePrefix(), now);
    const ended: string[] = [];
    const one = () =>
      new Uninstalls({
        installations,
        orgs: new OrgLinks(installations, undefined, now),
        questions: { pendingIn: () => Promise.resolve(['q1']), get: () => Promise.resolve(undefined) },
        end: (id) => {
          ended.push(id);
          return Promise.resolve({ won: false, state: 'missing' });
        },
        logger: quiet,
      });
    return { installations, ended, first: one(), second: one() };
  }

  it("keeps a workspace linked to its org when a request through another org's installation names it", async () => {
    const installations = new RedisInstallationStore(redis, uniquePrefix());
    await installations.storeInstallation(orgInstallation(ORG_A));
    await installations.storeInstallation(orgInstallation(ORG_B));
    const app = distributedApp(
      { clientId: '1.2', clientSecret: 'secret', stateSecret: 'state-secret-of-sixteen-plus' },
      {
        installations,
        clientOptions: { slackApiUrl: 'http://127.0.0.1:9/api/' },
        logger: quiet,
        now: Date.now,
      },
    );
    await app.orgs.granted('T0ORGB', ORG_B, Date.now());
    const home = {
      type: 'app_home_opened',
      user: 'W0EXT',
      channel: 'D0EXT',
      event_ts: '1700000000.000100',
    } as const;
    const source = { teamId: 'T0ORGB', enterpriseId: ORG_A, isEnterpriseInstall: true };
    await app.authorize(source, envelope(home, ORG_A, 'T0ORGB'));
    expect(await installations.orgOf('T0ORGB')).toBe(ORG_B);
  });

  it('stays unlinked when a grant Slack delivers again arrives after a later revocation', async () => {
    let now = 1_700_000_000_000;
    const { installations, ended, first, second } = replicas(() => now);
    const grantedAt = now / 1000;
    // The grant's first delivery died with its replica; the admin revoked a minute later.
    now += 60_000;
    await second.revoked(change('team_access_revoked', ORG_A, 'T0LATE', now / 1000));
    now += 60_000;
    await first.granted(change('team_access_granted', ORG_A, 'T0LATE', grantedAt));
    expect(await installations.orgOf('T0LATE')).toBeUndefined();
    expect(ended).toEqual(['q1']);
  });

  it('drops the link when a revocation is processed after an earlier grant that took long on another replica', async () => {
    let now = 1_700_000_000_000;
    const { installations, ended, first, second } = replicas(() => now);
    const grantedAt = now / 1000;
    now += 5_000;
    const revokedAt = now / 1000;
    now += 55_000;
    // The grant's replica wrote its link only now, a minute after Slack sent it.
    await first.granted(change('team_access_granted', ORG_A, 'T0SLOW', grantedAt));
    await second.revoked(change('team_access_revoked', ORG_A, 'T0SLOW', revokedAt));
    expect(await installations.orgOf('T0SLOW')).toBeUndefined();
    expect(ended).toEqual(['q1']);
  });

  it("links no workspace for a grant through an org whose installation is gone, and serves it no org's token", async () => {
    const installations = new RedisInstallationStore(redis, uniquePrefix());
    await installations.storeInstallation(orgInstallation(ORG_A));
    await installations.deleteInstallation({
      teamId: undefined,
      enterpriseId: ORG_A,
      isEnterpriseInstall: true,
    });
    const app = distributedApp(
      { clientId: '1.2', clientSecret: 'secret', stateSecret: 'state-secret-of-sixteen-plus' },
      {
        installations,
        clientOptions: { slackApiUrl: 'http://127.0.0.1:9/api/' },
        logger: quiet,
        now: Date.now,
      },
    );
    const grant: SlackEvent = {
      type: 'team_access_granted',
      team_ids: ['T0GONE'],
      event_ts: '1700000000.000100',
    };
    const source = { teamId: 'T0GONE', enterpriseId: ORG_A, isEnterpriseInstall: true };
    await expect(app.authorize(source, envelope(grant, ORG_A, 'T0GONE'))).rejects.toThrow('not installed');
    // Even a link left behind finds no installation to use.
    await installations.linkWorkspace('T0GONE', ORG_A);
    await expect(app.clients.for('T0GONE')).rejects.toThrow(`the app is not installed in org ${ORG_A}`);
  });
});
