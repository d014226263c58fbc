// Each workspace's link to its Enterprise Grid org, in Redis, as Slack's team access events, the org's listing
// and the requests through the org's installation change it: a team access event notes no request from the
// envelope's workspace, a revocation older than the workspace's latest link (delivered again after a new grant)
// changes nothing, and the org installations are asked for their workspaces a bounded number of times.
import { LogLevel, type EnvelopedEvent, type Installation } from '@slack/bolt';
import type { SlackEvent } from '@slack/types';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distributedApp } from '../../src/slack/oauth.js';
import { RedisInstallationStore } from '../../src/slack/state/index.js';
import { Uninstalls } from '../../src/slack/uninstalls.js';
import { OrgLinks } from '../../src/slack/workspaces.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';

const ORG = 'E0LINKS';

const orgInstallation: Installation<'v2', true> = {
  team: undefined,
  enterprise: { id: ORG, name: ORG },
  user: { id: 'W0ADMIN', token: undefined, scopes: undefined },
  bot: { id: 'B1', userId: 'W0BOT', token: 'xoxb-org', scopes: ['chat:write'] },
  isEnterpriseInstall: true,
  appId: 'A1',
  tokenType: 'bot',
  authVersion: 'v2',
};

/** Log lines as a Logger takes them, kept. */
function logged() {
  const lines: string[] = [];
  const keep = (...msg: unknown[]): void => void lines.push(msg.map(String).join(' '));
  return { lines, logger: { info: keep, warn: keep, error: keep } };
}

describe("a workspace's link to its org", () => {
  let redis: Redis;
  beforeAll(() => {
    redis = new Redis(redisUrl());
  });
  afterAll(async () => {
    await redis.quit();
  });

  it("notes no link for a team access event's envelope workspace, and one for a request through the org", async () => {
    const installations = new RedisInstallationStore(redis, uniquePrefix());
    await installations.storeInstallation(orgInstallation);
    const app = distributedApp(
      { clientId: '1.2', clientSecret: 'secret', stateSecret: 'state-secret-of-sixteen-plus' },
      {
        installations,
        clientOptions: { slackApiUrl: 'http://127.0.0.1:9/api/' },
        logger: {
          ...logged().logger,
          debug: () => undefined,
          setLevel: () => undefined,
          getLevel: () => LogLevel.INFO,
          setName: () => undefined,
        },
        now: Date.now,
      },
    );
    const source = { teamId: 'T0ENVELOPE', enterpriseId: ORG, isEnterpriseInstall: true };
    /** `event` in its envelope through the org's installation, with the workspace T0ENVELOPE as its team. */
    const envelope = (event: SlackEvent): EnvelopedEvent<SlackEvent> => ({
      token: 'verification',
      team_id: 'T0ENVELOPE',
      enterprise_id: ORG,
      api_app_id: 'A1',
      event,
      type: 'event_callback',
      event_id: `Ev0${event.type}`,
      event_time: 1_700_000_000,
    });
    const event = (type: 'team_access_granted' | 'team_access_revoked'): EnvelopedEvent<SlackEvent> =>
      envelope({ type, team_ids: ['T0ENVELOPE'], event_ts: '1700000000.000100' });
    await app.authorize(source, event('team_access_revoked'));
    await app.authorize(source, event('team_access_granted'));
    expect(await installations.orgOf('T0ENVELOPE')).toBeUndefined();
    const home = {
      type: 'app_home_opened',
      user: 'W0PAT',
      channel: 'D0PAT',
      event_ts: '1700000000.000200',
    } as const;
    await app.authorize(source, envelope(home));
    expect(await installations.orgOf('T0ENVELOPE')).toBe(ORG);
  });

  it('keeps the link and the questions when a revocation older than the latest grant is delivered again', async () => {
    let now = 1_700_000_000_000;
    const installations = new RedisInstallationStore(redis, uniquePrefix(), () => now);
    const orgs = new OrgLinks(installations, undefined, () => now);
    const ended: string[] = [];
    const { lines, logger } = logged();
    const uninstalls = new Uninstalls({
      installations,
      orgs,
      questions: { pendingIn: () => Promise.resolve(['q1']), get: () => Promise.resolve(undefined) },
      end: (id) => {
        ended.push(id);
        return Promise.resolve({ won: false, state: 'missing' });
      },
      logger,
    });
    const change = (event: 'team_access_granted' | 'team_access_revoked', atSec: number) => ({
      event,
      enterpriseId: ORG,
      teamIds: ['T0AGAIN'],
      eventTime: atSec,
    });
    const revokedAt = now / 1000;
    await uninstalls.granted(change('team_access_granted', revokedAt - 60));
    await uninstalls.revoked(change('team_access_revoked', revokedAt));
    expect(await installations.orgOf('T0AGAIN')).toBeUndefined();
    expect(ended).toEqual(['q1']);
    now += 60_000;
    await uninstalls.granted(change('team_access_granted', now / 1000));
    // Slack delivers the first revocation again (its event_time is the first delivery's).
    await uninstalls.revoked(change('team_access_revoked', revokedAt));
    expect(await installations.orgOf('T0AGAIN')).toBe(ORG);
    expect(ended).toEqual(['q1']);
    expect(lines.filter((l) => l.includes('granted again; ignored'))).toHaveLength(1);
  });

  it("asks the org installations at most once per 5 minutes, linking the others' workspaces past a failing org", async () => {
    let now = 1_700_000_000_000;
    const installations = new RedisInstallationStore(redis, uniquePrefix(), () => now);
    await installations.storeInstallation(orgInstallation);
    await installations.storeInstallation({ ...orgInstallation, enterprise: { id: 'E0FAILS', name: 'x' } });
    const asked: string[] = [];
    const { lines, logger } = logged();
    const grantedTo = (org: string): Promise<string[]> => {
      asked.push(org);
      if (org === 'E0FAILS') return Promise.reject(new Error('invalid_auth'));
      return Promise.resolve(now < 1_700_000_100_000 ? ['T0LISTED'] : ['T0LISTED', 'T0LATER']);
    };
    const orgs = new OrgLinks(installations, { grantedTo, logger }, () => now);
    // Two lookups at once share one round.
    expect(await Promise.all([orgs.orgOf('T0LISTED'), orgs.orgOf('T0NOWHERE')])).toEqual([ORG, undefined]);
    expect(asked.sort()).toEqual(['E0FAILS', ORG]);
    expect(lines.filter((l) => l.includes("org E0FAILS's workspaces could not be listed"))).toHaveLength(1);
    now += 200_000;
    expect(await orgs.orgOf('T0LATER')).toBeUndefined();
    expect(asked).toHaveLength(2);
    now += 100_000;
    expect(await orgs.orgOf('T0LATER')).toBe(ORG);
    expect(asked).toHaveLength(4);
  });
});
