// The stand-in's org-wide installs (Enterprise Grid), as Slack documents them: an Org Admin approves for the org,
// oauth.v2.access answers `is_enterprise_install: true` with the `enterprise` and `team: null`, the org's one bot
// token answers auth.test naming the org, and a workspace's requests through that installation carry the org.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventCallback } from '../../src/standin/payloads.js';
import type { OAuthApp, SlackStandin } from '../../src/standin/index.js';
import { authorizePage, installOrgAtStandin, startOrgStandin } from '../support/oauth-install.js';
import { slackCall } from '../support/rotating-install.js';

const APP: OAuthApp = {
  clientId: '7777.8888',
  clientSecret: 'standin-org-secret',
  redirectUrl: 'https://bot.example.com/slack/oauth_redirect',
};
const ORG = 'E0STANDORG';

let standin: SlackStandin;
beforeAll(async () => {
  standin = await startOrgStandin(APP, ORG, ['T0ORGA', 'T0ORGB']);
});
afterAll(() => standin.close());

describe('org-wide installs at the stand-in', () => {
  it('answers oauth.v2.access for the org: is_enterprise_install, the enterprise, no team', async () => {
    const answer = await installOrgAtStandin(standin, APP, ORG);
    expect(answer).toMatchObject({
      ok: true,
      team: null,
      enterprise: { id: ORG },
      is_enterprise_install: true,
      authed_user: { id: 'W0ADMIN' },
    });
    const test = await slackCall(standin, 'auth.test', { token: String(answer.access_token) });
    expect(test).toMatchObject({ ok: true, enterprise_id: ORG, is_enterprise_install: true });
  });

  it('refuses an org install for an org none of its workspaces belongs to', () => {
    expect(() =>
      standin.oauth.approve(authorizePage(APP), { enterpriseId: 'E0OTHER', userId: 'W0ADMIN' }),
    ).toThrow(/invalid_team/);
  });

  it("puts the org in an event through the org's installation, and the workspace beside it", () => {
    const envelope = eventCallback({
      identity: standin.identity,
      teamId: 'T0ORGB',
      enterpriseId: ORG,
      token: 'verification',
      nowMs: 1_700_000_000_000,
      event: { type: 'app_home_opened' },
    });
    expect(envelope).toMatchObject({
      team_id: 'T0ORGB',
      enterprise_id: ORG,
      authorizations: [{ enterprise_id: ORG, team_id: null, is_enterprise_install: true }],
    });
  });
});
