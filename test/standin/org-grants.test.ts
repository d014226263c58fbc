// The workspaces an org-wide installation is granted at the stand-in, as Slack documents them: none at install,
// then those an org admin adds (team_access_granted) less those removed (team_access_revoked), listed by
// auth.teams.list with the org's token, a page of `limit` at a time with `next_cursor`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OAuthApp, SlackStandin } from '../../src/standin/index.js';
import { installOrgAtStandin, startOrgStandin } from '../support/oauth-install.js';
import { slackCall } from '../support/rotating-install.js';

const APP: OAuthApp = { clientId: '9.9', clientSecret: 'grants', redirectUrl: 'https://bot.example.com/r' };
const ORG = 'E0GRANTS';

let standin: SlackStandin;
beforeAll(async () => {
  standin = await startOrgStandin(APP, ORG, ['T0GA', 'T0GB', 'T0GC']);
});
afterAll(() => standin.close());

const call = (method: string, form: Record<string, string>) => slackCall(standin, method, form);

describe("auth.teams.list for an org's installation", () => {
  it('lists the workspaces granted now, a page at a time', async () => {
    const installed = await installOrgAtStandin(standin, APP, ORG);
    const token = String(installed.access_token);
    expect(await call('auth.teams.list', { token })).toMatchObject({ ok: true, teams: [] });
    standin.grants.grant(ORG, ['T0GA', 'T0GB', 'T0GC']);
    standin.grants.revoke(ORG, ['T0GB']);
    const first = await call('auth.teams.list', { token, limit: '1' });
    expect(first).toMatchObject({ ok: true, teams: [{ id: 'T0GA' }] });
    const cursor = (first.response_metadata as { next_cursor: string }).next_cursor;
    const second = await call('auth.teams.list', { token, limit: '1', cursor });
    expect(second).toMatchObject({
      ok: true,
      teams: [{ id: 'T0GC' }],
      response_metadata: { next_cursor: '' },
    });
    expect(await call('auth.teams.list', { token, limit: '1001' })).toMatchObject({
      ok: false,
      error: 'invalid_limit',
    });
  });

  it('refuses to grant a workspace outside the org', () => {
    expect(() => standin.grants.grant(ORG, ['T0OUTSIDE'])).toThrow(
      expect.objectContaining({ code: 'invalid_team' }),
    );
  });
});
