// A distributed app's installation with Slack's token rotation, as the bot token refresh tests keep it: the
// stand-in (token rotation on) approves the install, oauth.v2.access gives a bot token that expires with a refresh
// token, and the test stores the installation itself, its expiry by the bot's clock. Also the Bolt logger those
// tests give the app, Web API calls made by hand and the refreshes the stand-in answered.
import { LogLevel, type Installation, type Logger } from '@slack/bolt';
import type { RedisInstallationStore } from '../../src/slack/state/index.js';
import { startSlackStandin, type RecordedCall, type SlackStandin } from '../../src/standin/index.js';

/** The app's OAuth credentials, as the bot and the stand-in both know them. */
export interface RotatingApp {
  clientId: string;
  clientSecret: string;
}

/** Slack's stand-in for an app with token rotation, installable in `teamId`, on Slack's clock `clock`. */
export function startRotatingStandin(
  app: RotatingApp,
  teamId: string,
  clock?: () => number,
): Promise<SlackStandin> {
  return startSlackStandin({
    // A distributed app has no bot token of its own: each installation's token is used instead.
    botToken: 'xoxb-never-used-by-a-distributed-app',
    oauth: {
      clientId: app.clientId,
      clientSecret: app.clientSecret,
      redirectUrl: 'https://bot.example.com/slack/oauth_redirect',
      tokenRotation: true,
    },
    workspaces: [{ teamId }],
    ...(clock === undefined ? {} : { clock }),
  });
}

/** A Bolt logger that drops everything but its errors, which go to `onError`. */
export function boltLogger(onError: (...msg: unknown[]) => void = () => undefined): Logger {
  return {
    debug: () => undefined,
    info: () => undefined,
    warn: () => undefined,
    error: onError,
    setLevel: () => undefined,
    getLevel: () => LogLevel.INFO,
    setName: () => undefined,
  };
}

/** One Web API call to the stand-in, its form as given (a token in it, where the method needs one). */
export async function slackCall(
  standin: SlackStandin,
  method: string,
  form: Record<string, string>,
): Promise<Record<string, unknown>> {
  const response = await fetch(`${standin.apiUrl}${method}`, {
    method: 'POST',
    body: new URLSearchParams(form),
  });
  return (await response.json()) as Record<string, unknown>;
}

/** The refreshes of a rotating bot token (oauth.v2.access, grant_type=refresh_token) the stand-in answered. */
export const refreshesAt = (standin: SlackStandin): RecordedCall[] =>
  standin.calls.filter((c) => c.method === 'oauth.v2.access' && c.args.grant_type === 'refresh_token');

/**
 * Installs the app in `teamId` at the stand-in (authorize page, then oauth.v2.access) and keeps the installation
 * in `store`, its expiry by `now` (the bot's clock, epoch ms).
 */
export async function installRotating(
  standin: SlackStandin,
  store: RedisInstallationStore,
  install: { app: RotatingApp; teamId: string; now: () => number },
): Promise<Installation<'v2', false>> {
  const { app, teamId } = install;
  const page = `https://slack.example/oauth/v2/authorize?client_id=${app.clientId}&scope=chat:write`;
  const back = standin.oauth.approve(page, { teamId, userId: 'UADMIN' });
  const code = new URL(back).searchParams.get('code') ?? '';
  const form = { client_id: app.clientId, client_secret: app.clientSecret, code };
  const answer = await slackCall(standin, 'oauth.v2.access', form);
  const installation: Installation<'v2', false> = {
    team: { id: teamId },
    enterprise: undefined,
    user: { id: 'UADMIN', token: undefined, scopes: undefined },
    bot: {
      id: 'B0BOT',
      userId: String(answer.bot_user_id),
      token: String(answer.access_token),
      refreshToken: String(answer.refresh_token),
      expiresAt: Math.floor(install.now() / 1000) + Number(answer.expires_in),
      scopes: ['chat:write'],
    },
    isEnterpriseInstall: false,
    authVersion: 'v2',
  };
  await store.storeInstallation(installation);
  return installation;
}
