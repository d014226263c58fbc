// The Slack side of MCP sign-in, wired into createSlack (slack.ts): the sign-in pages' routes, built before the
// app exists (they are mounted on its HTTP server), and the parts they use of it once it does; with
// `connections`, the Connect DM as the hub's sign-in prompter and the sweep of expired Connect messages.
import type { RequestListener } from 'node:http';
import { systemClock } from '../clock.js';
import { httpFetch } from '../http/index.js';
import type { Connections, Person } from '../mcp/index.js';
import type { SlackApp } from './app.js';
import { retryingMessages } from './messages.js';
import { SlackSignIn } from './sign-in.js';
import { SignInExpiries } from './sign-in-expiries.js';
import { homeTeamOf, slackOwners, type OwnerLookup } from './sign-in-owner.js';
import { announceIdentityCheck, identityCheckOf, signInRoutes } from './sign-in-routes.js';
import type { SlackOptions } from './slack.js';

/** What the sign-in pages use of the app, which exists only after their routes are built. */
export interface SignInLate {
  signIn?: SlackSignIn;
  ownerOf?: OwnerLookup;
  homeTeam?: () => Promise<string>;
}

/** Gives the sign-in pages the app's parts; with `connections`, the Connect DM as the sign-in prompter. */
export function lateSignIn(
  app: SlackApp,
  { connections, state, clock = systemClock, logger }: SlackOptions,
  late: SignInLate,
): { connections: Connections; prompter: SlackSignIn; expiries: SignInExpiries } | undefined {
  const { surface, clients } = app;
  late.ownerOf = slackOwners(clients, systemClock);
  late.homeTeam = homeTeamOf(clients);
  if (!connections) return undefined;
  late.signIn = new SlackSignIn({
    messages: retryingMessages(clients),
    places: state.signInPrompts,
    locales: surface.locales,
    dmOf: surface.dmOf.bind(surface),
    clock,
  });
  const expiries = new SignInExpiries({ signIn: late.signIn, clock, logger });
  return { connections, prompter: late.signIn, expiries };
}

/**
 * The sign-in pages when some server needs sign-in (sign-in-routes.ts): the Connect link's start page (names whose
 * link it is; with the app's client credentials, Sign in with Slack checks it is them), then the authorization
 * server, and the callback that completes it and tells the person in Slack.
 */
export function callbackRoute(options: SlackOptions, late: SignInLate): Record<string, RequestListener> {
  const { connections, logger } = options;
  if (!connections) return {};
  const connected = async (server: string, person: Person): Promise<void> =>
    late.signIn?.connected(server, person);
  const refused = async (...told: Parameters<SlackSignIn['refused']>): Promise<void> =>
    late.signIn?.refused(...told);
  const homeTeam = (): Promise<string> =>
    late.homeTeam?.() ?? Promise.reject(new Error('Slack is not started'));
  const identity = identityCheckOf(options.config, httpFetch, systemClock, homeTeam);
  announceIdentityCheck(logger, { on: identity !== undefined, publicUrl: options.publicUrl ?? '' });
  return signInRoutes({
    connections,
    // The app's Slack clients exist once the routes are mounted; a request comes only after that.
    ownerOf: (person) => late.ownerOf?.(person) ?? Promise.resolve({}),
    connected,
    refused,
    logger,
    ...(identity ? { identity } : {}),
  });
}
