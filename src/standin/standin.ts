// A local Slack Web API stand-in on plain node:http: answers as Slack documents (HTTP 200 + {ok:false,error},
// 429 + Retry-After when rate limited), enforces Block Kit limits and trigger_id rules, and records every call.
import type { IncomingMessage, Server } from 'node:http';
import type { Obj } from './blockkit-check.js';
import { CallLog, StandinError, type RecordedCall } from './calls.js';
import { type Answer, listen } from './http.js';
import { CHAT_METHODS, type Handler, fail, messageObject } from './methods-chat.js';
import { FILE_METHODS, UPLOAD_PATH, type StandinFile, receiveUpload } from './methods-files.js';
import { MEMBER_METHODS } from './methods-members.js';
import { VIEW_METHODS } from './methods-views.js';
import { OAuthEndpoint, type OAuthApp, type StandinWorkspace } from './oauth.js';
import { SocketModeEndpoint, SocketTransport } from './socket-mode.js';
import type { Transport } from './transports.js';
import { type ResponseTarget, ResponseUrls, applyViewAck } from './responses.js';
import { RateLimits } from './rate-limits.js';
import {
  type EphemeralMessage,
  type Identity,
  type OpenedView,
  type PostedMessage,
  Store,
  type StandinUser,
} from './store.js';

export interface StandinOptions {
  /** The only bot token accepted (Bearer header or `token` argument). */
  botToken: string;
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
  /** The app's OAuth credentials: workspaces can install it (authorize page + oauth.v2.access). */
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
  /**
   * Enforce Slack's documented rate limits (blocks/slack-rate-limits.ts): past them a call gets HTTP 429
   * `ratelimited` with Retry-After. Off by default, so tests that do not study pacing are not slowed by it.
   */
  rateLimits?: boolean;
}

export interface FailOptions {
  /** Seconds for the Retry-After header; default 1 when the error is `ratelimited`. */
  retryAfterSec?: number;
  /** HTTP status; default 429 for `ratelimited`, else 200 (Slack's errors are HTTP 200). */
  status?: number;
}

export interface HeldCall {
  arrived: Promise<void>;
  release(): void;
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
  homeOf(userId: string): Record<string, unknown> | undefined;
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
  failNext(method: string, error: string, opts?: FailOptions): void;
  /** Holds the next call of `method` (a slow Slack) until `release()`; `arrived` resolves once it came in. */
  holdNext(method: string): HeldCall;
  waitForCall(
    method: string,
    predicate?: (c: RecordedCall) => boolean,
    timeoutMs?: number,
  ): Promise<RecordedCall>;
  close(): Promise<void>;
}

const METHODS: Record<string, Handler> = {
  ...CHAT_METHODS,
  ...VIEW_METHODS,
  ...FILE_METHODS,
  ...MEMBER_METHODS,
};

interface Injected {
  error: string;
  opts: FailOptions;
}

class Standin implements SlackStandin {
  readonly log = new CallLog();
  private readonly failures = new Map<string, Injected[]>();
  private readonly holds = new Map<string, { arrive: () => void; released: Promise<void> }[]>();
  private readonly limits: RateLimits | undefined;
  readonly responses: ResponseUrls;
  server: Server | undefined;
  origin = '';
  private socket: SocketModeEndpoint | undefined;
  readonly oauth: OAuthEndpoint;

  constructor(
    readonly store: Store,
    opts: StandinOptions,
  ) {
    this.responses = new ResponseUrls(store);
    this.limits = opts.rateLimits ? new RateLimits(() => store.now()) : undefined;
    const workspaces = new Map<string, StandinWorkspace>(
      [
        { teamId: store.identity.teamId, teamDomain: store.identity.teamDomain },
        ...(opts.workspaces ?? []),
      ].map((w) => [w.teamId, w]),
    );
    const app = opts.oauth ?? { clientId: '', clientSecret: '' };
    this.oauth = new OAuthEndpoint(app, workspaces, store.identity.appId, () => store.now());
  }

  get apiUrl(): string {
    return `${this.origin}/api/`;
  }
  get calls(): RecordedCall[] {
    return this.log.calls;
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

  readonly route = async (path: string, args: Obj, req: IncomingMessage, raw: string): Promise<Answer> => {
    if (path.startsWith(UPLOAD_PATH)) {
      const { status, text } = await receiveUpload(this.store, path, raw, req.headers['content-type']);
      this.record('file_upload', { path }, { ok: status === 200 });
      return { status, body: {}, text };
    }
    if (path.startsWith('/response/')) {
      const answer = this.responses.post(path, args);
      this.record('response_url', { ...args, response_url: path }, answer.body);
      return answer;
    }
    if (!path.startsWith('/api/')) return { status: 404, body: fail('unknown_method') };
    const method = path.slice('/api/'.length);
    const hold = this.holds.get(method)?.shift();
    if (hold) {
      hold.arrive();
      await hold.released;
    }
    const { answer, teamId } = this.dispatch(method, args, req.headers.authorization);
    this.record(method, args, answer.body, teamId);
    return answer;
  };

  private record(method: string, args: Obj, body: Obj, teamId?: string): RecordedCall {
    const error = typeof body.error === 'string' ? { error: body.error } : {};
    const team = teamId ? { teamId } : {};
    return this.log.record({ method, args, ok: body.ok === true, ...error, ...team, at: this.store.now() });
  }

  /** Methods that authenticate with something other than the bot token. */
  private readonly ownAuth: Record<
    string,
    (token: string | undefined, args: Obj, authorization?: string) => Obj
  > = {
    'apps.connections.open': (token) => this.socketMode.connectionsOpen(token, this.store.identity.botToken),
    'oauth.v2.access': (_token, args, authorization) => this.oauth.access(args, authorization),
  };

  /** The workspace a bot token belongs to: the stand-in's own, or one that installed the app. */
  private callerOf(token: string): Identity | undefined {
    return token === this.store.identity.botToken ? this.store.identity : this.oauth.installed.get(token);
  }

  private dispatch(
    method: string,
    args: Obj,
    authorization: string | undefined,
  ): { answer: Answer; teamId?: string } {
    const injected = this.failures.get(method)?.shift();
    if (injected) return { answer: injectedAnswer(injected) };
    const bearer = authorization?.startsWith('Bearer ') ? authorization.slice('Bearer '.length) : undefined;
    const token = bearer ?? (typeof args.token === 'string' ? args.token : undefined);
    const own = this.ownAuth[method];
    if (own) return { answer: { status: 200, body: own(token, args, authorization) } };
    const handler = METHODS[method];
    if (!handler) return { answer: { status: 200, body: fail('unknown_method') } };
    if (!token) return { answer: { status: 200, body: fail('not_authed') } };
    const caller = this.callerOf(token);
    if (!caller) return { answer: { status: 200, body: fail('invalid_auth') } };
    const retryAfterSec = this.limits?.admit(caller.teamId, method, args);
    if (retryAfterSec !== undefined) {
      return {
        answer: injectedAnswer({ error: 'ratelimited', opts: { retryAfterSec } }),
        teamId: caller.teamId,
      };
    }
    const body = this.store.as(caller, () => handler(args, this.store));
    return { answer: { status: 200, body }, teamId: caller.teamId };
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
  homeOf(userId: string): Record<string, unknown> | undefined {
    return this.store.homes.get(userId);
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
    return this.record('response_action', { view_id: viewId, ack: ack ?? null }, body);
  }
  settleClose(viewId: string): void {
    this.store.closeView(viewId);
  }
  keepSuggestions(viewId: string, actionId: string, options: Obj[]): void {
    const stored = this.store.views.get(viewId);
    if (stored) stored.suggestions = { ...stored.suggestions, [actionId]: options };
  }
  failNext(method: string, error: string, opts: FailOptions = {}): void {
    const queue = this.failures.get(method) ?? [];
    queue.push({ error, opts });
    this.failures.set(method, queue);
  }
  holdNext(method: string): HeldCall {
    let arrive = (): void => undefined;
    let release = (): void => undefined;
    const arrived = new Promise<void>((resolve) => (arrive = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    this.holds.set(method, [...(this.holds.get(method) ?? []), { arrive, released }]);
    return { arrived, release };
  }
  waitForCall(
    method: string,
    predicate?: (c: RecordedCall) => boolean,
    timeoutMs?: number,
  ): Promise<RecordedCall> {
    return this.log.waitFor(method, predicate, timeoutMs);
  }
  async close(): Promise<void> {
    this.log.close();
    await this.socket?.close();
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
  }
}

function injectedAnswer({ error, opts }: Injected): Answer {
  const limited = error === 'ratelimited';
  const retryAfter = opts.retryAfterSec ?? (limited ? 1 : undefined);
  return {
    status: opts.status ?? (limited ? 429 : 200),
    body: fail(error),
    headers: retryAfter === undefined ? undefined : { 'retry-after': String(retryAfter) },
  };
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
  };
  const standin = new Standin(
    new Store(identity, opts.clock ?? Date.now, opts.users, opts.usergroups, opts.channels),
    opts,
  );
  const { server, origin } = await listen(opts.port ?? 0, standin.route);
  standin.attach(server, origin, opts.appToken);
  return standin;
}
