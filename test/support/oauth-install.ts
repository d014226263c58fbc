// Bolt's OAuth install as a browser runs it: /slack/install → Slack's authorize page (the stand-in approves
// for `teamId`) → /slack/oauth_redirect with the state cookie. Resolves with the final page's HTTP status.
import type { SlackStandin } from '../../src/standin/index.js';

export async function install(base: string, standin: SlackStandin, teamId: string): Promise<number> {
  const page = await fetch(`${base}/slack/install`);
  const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const href = /href="([^"]*oauth\/v2\/authorize[^"]*)"/.exec(await page.text())?.[1] ?? '';
  const back = standin.oauth.approve(href.replaceAll('&amp;', '&'), { teamId, userId: `UADMIN${teamId}` });
  const done = await fetch(back, { headers: { cookie }, redirect: 'manual' });
  return done.status;
}
