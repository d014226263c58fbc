// A local Slack Web API stand-in on plain node:http: answers as Slack documents (HTTP 200 + {ok:false,error},
// 429 + Retry-After when rate limited), enforces Block Kit limits and trigger_id rules, and records every call.
// Each request is answered in routing.ts; this file starts the stand-in and gives tests its state (store.ts).
import type { Server } from 'node:http';
import type { Obj } from './blockkit-check.js';
import { StandinError, type RecordedCall } from './calls.js';
import { listen } from './http.js';
import { messageObject } from './methods-chat.js';
import type { StandinFile } from './methods-files.js';
import { OAuthEndpoint, type OAuthApp, type StandinWorkspace } from './oauth.js';
import { OrgGrants } from './org-grants.js';
import { OpenIdEndpoint } from './openid.js';
import { SocketModeEndpoint, SocketTransport } from './socket-mode.js';
import type { Transport } from './transports.js';
import { type ResponseTarget, ResponseUrls, applyViewAck } from './responses.js';
import { type FailOptions, type HeldCall, Routing } from './routing.js';
import {
  type EphemeralMessage,
  type Identity,
  type OpenedView,
  type PostedMessage,
  Store,
  type StandinUser,
  homeKey,
} from './store.js';

export type { FailOptions, HeldCall } from './routing.js';

export interface StandinOptions {
  /** The only bot token accepted (Bearer header or `token` argument). */
  botToken: string;
  /**
   * That token's scopes, as the app was installed with (e.g. manifest.yml's bot scopes): conversations.members
   * and conversations.open on a conversation type whose scope is missing answer `missing_scope` with `needed`.
   * Default: every scope (nothing refused). Tokens of OAuth installs have the scopes their install asked for.
   */
  scopes?: readonly string[];
  /** Epoch ms; drives trigger_id expiry, ts and hashes. Default Date.now. */
  clock?: () => number;
  /** TCP port on 127.0.0.1; default 0 (a random free port). */
  port?: number;
  /** Default `T0STANDIN`. */
  teamId?: string;
  /** Workspace subdomain; default `standin`. */
  teamDomain?: string;
  /** The bot's user id (auth.test user_id); default `U0STANDINBOT`. */
  botUserId?: string;
  /** App-level token (`xapp-…`) that apps.connections.open accepts; without it Socket Mode is refused. */
  appToken?: string;
  /**
   * The app's OAuth credentials: workspaces can install it (authorize page + oauth.v2.access), and people sign in
   * with Slack to it (openid.ts). With `tokenRotation`, installs get bot tokens that expire (oauth.ts).
   */
  oauth?: OAuthApp;
  /** More workspaces the app can be installed in (the stand-in's own is always one). */
  workspaces?: StandinWorkspace[];
  /** People users.info knows by name/locale/tz; others get defaults derived from their id. */
  users?: Record<string, StandinUser>;
  /** User groups (S… id → member ids) for usergroups.users.list. */
  usergroups?: Record<string, string[]>;
  /**
   * Channels (C…/G… id → member ids) for conversations.members. A listed channel whose members leave out the
   * bot user refuses its posts (`not_in_channel`), as Slack does; unlisted channels take them.
   */
  channels?: Record<string, string[]>;
  /** Members (the bot aside) of every unlisted channel; default none: conversations.members does not find it. */
  unlistedChannelMembers?: readonly string[];
  /**
   * Enforce Slack's documented rate limits (blocks/slack-rate-limits.ts): past them a call gets HTTP 429
   * `ratelimited` with Retry-After. Off by default, so tests that do not study pacing are not slowed by it.
   */
  rateLimits?: boolean;
  /**
   * A distant Slack: each Web API call, response_url post and upload is answered this many ms (real time) after
   * it arrived, as Slack's are 50–150 ms away from most hosts. Default 0.
   */
  latencyMs?: number;
}

export interface SlackStandin {
  /** Base URL for WebClient's `slackApiUrl`, with the trailing slash it needs (`http://127.0.0.1:PORT/api/`). */
  readonly apiUrl: string;
  readonly calls: RecordedCall[];
  readonly identity: Readonly<Identity>;
  /** Socket Mode: the WebSocket endpoint behind apps.connections.open. */
  readonly socketMode: SocketModeEndpoint;
  /** A driver transport that sends envelopes over the app's Socket Mode connection. */
  socketTransport(): Transport;
  /** OAuth installs: `approve` plays the person allowing one; oauth.v2.access hands out the bot tokens. */
  readonly oauth: OAuthEndpoint;
  /** The workspaces each org-wide installation is granted (auth.teams.list); the driver's `teamAccess` sets them. */
  readonly grants: OrgGrants;
  /** Sign in with Slack: `approve` plays a person signing in; openid.connect.token hands out their id_token. */
  readonly openid: OpenIdEndpoint;
  message(channel: string, ts: string): PostedMessage | undefined;
  /** The message object Slack puts in block_actions payloads, or undefined. */
  messageObject(channel: string, ts: string): Record<string, unknown> | undefined;
  messagesIn(channel: string): PostedMessage[];
  /** Ids of the conversations that hold at least one message, in order of their first message. */
  channelsWithMessages(): string[];
  ephemeralsFor(userId: string): EphemeralMessage[];
  dmChannelOf(userId: string): string;
  /** The multi-person DM conversations.open gives these people (in any order). */
  mpimChannelOf(userIds: readonly string[]): string;
  view(id: string): OpenedView | undefined;
  /** The open modal stack of a user, root first. */
  openViews(userId: string): OpenedView[];
  /** The person's Home view in workspace `teamId` (default the stand-in's own), as last published. */
  homeOf(userId: string, teamId?: string): Record<string, unknown> | undefined;
  /** An uploaded file (files.getUploadURLExternal + upload + files.completeUploadExternal). */
  file(id: string): StandinFile | undefined;
  user(userId: string): StandinUser;
  /** A trigger_id valid for 3 s by the stand-in's clock, single use. */
  issueTriggerId(userId: string): string;
  /** A fresh response_url (absolute) that posts into `target`. */
  responseUrl(target: ResponseTarget): string;
  /** Applies a view_submission HTTP answer (undefined = empty body) and records it as `response_action`. */
  settleSubmission(viewId: string, ack: unknown): RecordedCall;
  /** The user closed the view (after a view_closed delivery). */
  settleClose(viewId: string): void;
  /** Options the app suggested for an external select of an open view (the person may pick them). */
  keepSuggestions(viewId: string, actionId: string, options: Record<string, unknown>[]): void;
  /** Archives a conversation: posts to it answer `is_archived`, updates of its messages `is_inactive`. */
  archive(channel: string): void;
  /** The next call of `method` (or the next post to any response_url, `'response_url'`) is refused with `error`. */
  failNext(method: string, error: string, opts?: FailOptions): void;
  /**
   * Holds the next call of `method` (a Web API method, or `response_url`: a slow Slack) until `release()`;
   * `arrived` resolves once it came in.
   */
  holdNext(method: string): HeldCall;
  waitForCall(
    method: string,
    predicate?: (c: RecordedCall) => boolean,
    timeoutMs?: number,
  ): Promise<RecordedCall>;
  close(): Promise<void>;
}

class Standin implements SlackStandin {
  readonly routing: Routing;
  private readonly responses: ResponseUrls;
  server: Server | undefined;
  origin = '';
  private socket: SocketModeEndpoint | undefined;
  readonly oauth: OAuthEndpoint;
  readonly grants: OrgGrants;
  readonly openid: OpenIdEndpoint;

  constructor(
    readonly store: Store,
    opts: StandinOptions,
  ) {
    this.responses = new ResponseUrls(store);
    const workspaces = new Map<string, StandinWorkspace>(
      [
        { teamId: store.identity.teamId, teamDomain: store.identity.teamDomain },
        ...(opts.workspaces ?? []),
      ].map((w) => [w.teamId, w]),
    );
    const app = opts.oauth ?? { clientId: '', clientSecret: '' };
    this.oauth = new OAuthEndpoint(app, workspaces, store.identity.appId, () => store.now());
    this.grants = new OrgGrants(workspaces);
    this.openid = new OpenIdEndpoint({
      app,
      workspaces,
      user: (id) => store.user(id),
      issuer: () => this.origin,
      clock: () => store.now(),
    });
    this.routing = new Routing({
      store,
      responses: this.responses,
      oauth: this.oauth,
      grants: this.grants,
      openid: this.openid,
      socketMode: () => this.socketMode,
      rateLimits: opts.rateLimits === true,
      latencyMs: opts.latencyMs ?? 0,
    });
  }

  get apiUrl(): string {
    return `${this.origin}/api/`;
  }
  get calls(): RecordedCall[] {
    return this.routing.log.calls;
  }
  get identity(): Readonly<Identity> {
    return this.store.identity;
  }
  get socketMode(): SocketModeEndpoint {
    if (!this.socket) throw new StandinError('not_started', 'the stand-in is not listening yet');
    return this.socket;
  }
  socketTransport(): Transport {
    return new SocketTransport(this.socketMode);
  }
  attach(server: Server, origin: string, appToken: string | undefined): void {
    this.server = server;
    this.origin = origin;
    this.store.origin = origin;
    this.socket = new SocketModeEndpoint(server, { origin, appId: this.store.identity.appId, appToken });
  }

  message(channel: string, ts: string): PostedMessage | undefined {
    return this.store.message(channel, ts);
  }
  messageObject(channel: string, ts: string): Record<string, unknown> | undefined {
    const m = this.store.message(channel, ts);
    return m && messageObject(this.store, m);
  }
  messagesIn(channel: string): PostedMessage[] {
    const id = this.store.resolveChannel(channel);
    return [...this.store.messages.values()].filter((m) => m.channel === id);
  }
  channelsWithMessages(): string[] {
    return [...new Set([...this.store.messages.values()].map((m) => m.channel))];
  }
  ephemeralsFor(userId: string): EphemeralMessage[] {
    return this.store.ephemerals.filter((e) => e.userId === userId);
  }
  dmChannelOf(userId: string): string {
    return this.store.dmChannelOf(userId);
  }
  mpimChannelOf(userIds: readonly string[]): string {
    return this.store.mpimChannelOf(userIds);
  }
  view(id: string): OpenedView | undefined {
    return this.store.views.get(id);
  }
  openViews(userId: string): OpenedView[] {
    return this.store.stackOf(userId).flatMap((id) => this.store.views.get(id) ?? []);
  }
  file(id: string): StandinFile | undefined {
    return this.store.files.get(id);
  }
  homeOf(userId: string, teamId = this.store.identity.teamId): Record<string, unknown> | undefined {
    return this.store.homes.get(homeKey(teamId, userId));
  }
  user(userId: string): StandinUser {
    return this.store.user(userId);
  }
  issueTriggerId(userId: string): string {
    return this.store.issueTrigger(userId);
  }
  responseUrl(target: ResponseTarget): string {
    return `${this.origin}${this.responses.mint(target)}`;
  }
  settleSubmission(viewId: string, ack: unknown): RecordedCall {
    const body = applyViewAck(this.store, viewId, ack);
    return this.routing.record('response_action', { view_id: viewId, ack: ack ?? null }, body);
  }
  settleClose(viewId: string): void {
    this.store.closeView(viewId);
  }
  keepSuggestions(viewId: string, actionId: string, options: Obj[]): void {
    const stored = this.store.views.get(viewId);
    if (stored) stored.suggestions = { ...stored.suggestions, [actionId]: options };
  }
  archive(channel: string): void {
    this.store.archived.add(this.store.resolveChannel(channel));
  }
  failNext(method: string, error: string, opts?: FailOptions): void {
    this.routing.failNext(method, error, opts);
  }
  holdNext(method: string): HeldCall {
    return this.routing.holdNext(method);
  }
  waitForCall(
    method: string,
    predicate?: (c: RecordedCall) => boolean,
    timeoutMs?: number,
  ): Promise<RecordedCall> {
    return this.routing.log.waitFor(method, predicate, timeoutMs);
  }
  async close(): Promise<void> {
    this.routing.log.close();
    await this.socket?.close();
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
  }
}

/** Starts the stand-in on 127.0.0.1; close() it after use. */
export async function startSlackStandin(opts: StandinOptions): Promise<SlackStandin> {
  const identity: Identity = {
    teamId: opts.teamId ?? 'T0STANDIN',
    teamDomain: opts.teamDomain ?? 'standin',
    botUserId: opts.botUserId ?? 'U0STANDINBOT',
    botId: 'B0STANDINBOT',
    appId: 'A0STANDINAPP',
    botToken: opts.botToken,
    ...(opts.scopes ? { scopes: opts.scopes } : {}),
  };
  const { users, usergroups, channels, unlistedChannelMembers: unlisted } = opts;
  const store = new Store(identity, opts.clock ?? Date.now, users, usergroups, channels, unlisted);
  const standin = new Standin(store, opts);
  const { server, origin } = await listen(opts.port ?? 0, standin.routing.route);
  standin.attach(server, origin, opts.appToken);
  return standin;
}
