// A distributed app keeps one Web API client per workspace for cards, the outbox and App Home. A reinstall gives
// the workspace a new bot token: calls go out with it at once, and the client of the old token is let go (it was
// kept for the life of the replica, one per install ever made).
import type { Installation, InstallationQuery } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { StoreError } from '../../src/redis/index.js';
import type { WorkspaceOrgs } from '../../src/slack/state/ports.js';
import { InstalledWorkspaces, OrgLinks } from '../../src/slack/workspaces.js';
import { collected } from '../support/collected.js';

/** An installation store whose workspaces' bot tokens a test sets, as a reinstall would. */
function installs(tokens: Map<string, string>) {
  return {
    fetchInstallation: (query: InstallationQuery<boolean>): Promise<Installation> => {
      const token = tokens.get(query.teamId ?? '');
      return Promise.resolve({
        team: { id: query.teamId ?? '' },
        enterprise: undefined,
        user: { id: 'U0INSTALLER', token: undefined, scopes: undefined },
        bot: token ? { id: 'B0BOT', userId: 'U0BOT', token, scopes: [] } : undefined,
      });
    },
    /** A refused token reads the installation as it is (these tokens never expire). */
    refreshRefused(query: InstallationQuery<boolean>): Promise<Installation> {
      return this.fetchInstallation(query);
    },
  };
}

/** Links that are never revoked, with no org installation listed to ask. */
const NO_ORG_GRANTS: Pick<WorkspaceOrgs, 'unlinkWorkspace' | 'orgInstallations'> = {
  unlinkWorkspace: () => Promise.resolve('none'),
  orgInstallations: () => Promise.resolve([]),
};

describe('InstalledWorkspaces', () => {
  it('uses one client per workspace while its token stays the same', async () => {
    const workspaces = new InstalledWorkspaces(
      installs(
        new Map([
          ['T1', 'xoxb-one'],
          ['T2', 'xoxb-two'],
        ]),
      ),
      {},
    );
    const first = await workspaces.for('T1');
    expect(await workspaces.for('T1')).toBe(first);
    expect(first.token).toBe('xoxb-one');
    expect((await workspaces.for('T2')).token).toBe('xoxb-two');
  });

  it('calls with the new token after a reinstall and lets the old client go', async () => {
    const tokens = new Map([['T1', 'xoxb-before']]);
    const workspaces = new InstalledWorkspaces(installs(tokens), {});
    const before = new WeakRef(await workspaces.for('T1'));
    tokens.set('T1', 'xoxb-after');
    expect((await workspaces.for('T1')).token).toBe('xoxb-after');
    expect(await collected(before)).toBe(true);
  });

  it("uses its org's installation for a workspace without its own, once a request noted the org", async () => {
    const links = new Map<string, string>();
    const orgs = new OrgLinks({
      ...NO_ORG_GRANTS,
      linkWorkspace: (teamId, enterpriseId) => Promise.resolve(links.set(teamId, enterpriseId).has(teamId)),
      orgOf: (teamId) => Promise.resolve(links.get(teamId)),
    });
    const orgInstall = {
      fetchInstallation: (query: InstallationQuery<boolean>): Promise<Installation> =>
        query.isEnterpriseInstall && query.enterpriseId === 'E1'
          ? Promise.resolve({
              team: undefined,
              enterprise: { id: 'E1' },
              isEnterpriseInstall: true,
              user: { id: 'W0INSTALLER', token: undefined, scopes: undefined },
              bot: { id: 'B0BOT', userId: 'W0BOT', token: 'xoxb-org', scopes: [] },
            })
          : Promise.reject(new StoreError('not_installed', `nothing for ${query.teamId ?? ''}`)),
      refreshRefused(query: InstallationQuery<boolean>): Promise<Installation> {
        return this.fetchInstallation(query);
      },
    };
    const workspaces = new InstalledWorkspaces(orgInstall, {}, orgs);
    await expect(workspaces.for('T1')).rejects.toMatchObject({ code: 'not_installed' });
    // A request from T1 came through the org's installation (authorize notes it), on some replica.
    await orgs.noted('T1', 'E1');
    const elsewhere = new InstalledWorkspaces(
      orgInstall,
      {},
      new OrgLinks({
        ...NO_ORG_GRANTS,
        linkWorkspace: () => Promise.resolve(true),
        orgOf: (teamId) => Promise.resolve(links.get(teamId)),
      }),
    );
    expect((await elsewhere.for('T1')).token).toBe('xoxb-org');
    expect((await workspaces.for('T1')).token).toBe('xoxb-org');
  });
});
