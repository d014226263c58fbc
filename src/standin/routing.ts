// How the stand-in answers one request: file uploads and response_urls by path, Web API methods by name after
// the failures and holds a test injected, the caller's token and Slack's rate limits. Every request is recorded.
import type { IncomingMessage } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import type { Obj } from './blockkit-check.js';
import { CallLog, type RecordedCall } from './calls.js';
import type { Answer } from './http.js';
import { CHAT_METHODS, type Handler, fail } from './methods-chat.js';
import { FILE_METHODS, UPLOAD_PATH, receiveUpload } from './methods-files.js';
import { MEMBER_METHODS } from './methods-members.js';
import { VIEW_METHODS } from './methods-views.js';
import type { OAuthEndpoint } from './oauth.js';
import type { OrgGrants } from './org-grants.js';
import type { OpenIdEndpoint } from './openid.js';
import { openIdPage } from './openid-pages.js';
import { RateLimits } from './rate-limits.js';
import type { ResponseUrls } from './responses.js';
import type { SocketModeEndpoint } from './socket-mode.js';
import type { Identity, Store } from './store.js';

export interface FailOptions {
  /** Seconds for the Retry-After header; default 1 when the error is `ratelimited`. */
  retryAfterSec?: number;
  /** HTTP status; default 429 for `ratelimited`, else 200 (Slack's errors are HTTP 200). */
  status?: number;
  /** Only the next call whose arguments this takes fails (default: the next call of the method). */
  when?: (args: Obj) => boolean;
}

export interface HeldCall {
  arrived: Promise<void>;
  release(): void;
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

export interface RoutingParts {
  store: Store;
  responses: ResponseUrls;
  oauth: OAuthEndpoint;
  /** The org-wide installations' workspaces: auth.teams.list. */
  grants: OrgGrants;
  /** Sign in with Slack: its Web API methods here, its browser pages in openid-pages.ts. */
  openid: OpenIdEndpoint;
  /** The Socket Mode endpoint; throws while the stand-in is not listening yet. */
  socketMode: () => SocketModeEndpoint;
  /** Enforce Slack's documented rate limits (StandinOptions.rateLimits). */
  rateLimits: boolean;
  /** How long each request waits before it is handled (StandinOptions.latencyMs). */
  latencyMs: number;
}

export class Routing {
  readonly log = new CallLog();
  private readonly failures = new Map<string, Injected[]>();
  private readonly holds = new Map<string, { arrive: () => void; released: Promise<void> }[]>();
  private readonly limits: RateLimits | undefined;
  private readonly methods: Record<string, Handler>;

  constructor(private readonly parts: RoutingParts) {
    this.limits = parts.rateLimits ? new RateLimits(() => parts.store.now()) : undefined;
    this.methods = { ...METHODS, 'auth.teams.list': parts.grants.list };
  }

  readonly route = async (path: string, args: Obj, req: IncomingMessage, raw: string): Promise<Answer> => {
    const { store, responses, latencyMs } = this.parts;
    if (latencyMs > 0) await delay(latencyMs);
    if (path.startsWith(UPLOAD_PATH)) {
      const { status, text } = await receiveUpload(store, path, raw, req.headers['content-type']);
      this.record('file_upload', { path }, { ok: status === 200 });
      return { status, body: {}, text };
    }
    if (path.startsWith('/response/')) {
      await this.heldBack('response_url');
      const injected = this.failures.get('response_url')?.shift();
      const answer = injected ? injectedAnswer(injected) : responses.post(path, args);
      this.record('response_url', { ...args, response_url: path }, answer.body);
      return answer;
    }
    if (!path.startsWith('/api/')) {
      const choices = { team: store.identity.teamId, people: store.users };
      const page = openIdPage(this.parts.openid, path, args, req, choices);
      return page ?? { status: 404, body: fail('unknown_method') };
    }
    const method = path.slice('/api/'.length);
    await this.heldBack(method);
    const { answer, teamId } = this.dispatch(method, args, req.headers.authorization);
    this.record(method, args, answer.body, teamId);
    return answer;
  };

  /** Waits while a test holds the next call of `method` (holdNext). */
  private async heldBack(method: string): Promise<void> {
    const hold = this.holds.get(method)?.shift();
    if (hold === undefined) return;
    hold.arrive();
    await hold.released;
  }

  record(method: string, args: Obj, body: Obj, teamId?: string): RecordedCall {
    const error = typeof body.error === 'string' ? { error: body.error } : {};
    const team = teamId ? { teamId } : {};
    return this.log.record({
      method,
      args,
      ok: body.ok === true,
      ...error,
      ...team,
      at: this.parts.store.now(),
    });
  }

  failNext(method: string, error: string, opts: FailOptions = {}): void {
    const queue = this.failures.get(method) ?? [];
    queue.push({ error, opts });
    this.failures.set(method, queue);
  }

  /** The first failure injected for `method` that applies to a call with `args`, taken from its queue. */
  private takeFailure(method: string, args: Obj): Injected | undefined {
    const queue = this.failures.get(method) ?? [];
    const at = queue.findIndex((f) => f.opts.when?.(args) ?? true);
    return at === -1 ? undefined : queue.splice(at, 1)[0];
  }

  holdNext(method: string): HeldCall {
    let arrive = (): void => undefined;
    let release = (): void => undefined;
    const arrived = new Promise<void>((resolve) => (arrive = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    this.holds.set(method, [...(this.holds.get(method) ?? []), { arrive, released }]);
    return { arrived, release };
  }

  /** Methods that authenticate with something other than the bot token. */
  private readonly ownAuth: Record<
    string,
    (token: string | undefined, args: Obj, authorization?: string) => Obj
  > = {
    'apps.connections.open': (token) =>
      this.parts.socketMode().connectionsOpen(token, this.parts.store.identity.botToken),
    'oauth.v2.access': (_token, args, authorization) => this.parts.oauth.access(args, authorization),
    'openid.connect.token': (_token, args, authorization) => this.parts.openid.token(args, authorization),
    'openid.connect.userInfo': (token) => this.parts.openid.userInfo(token),
  };

  /** The workspace a bot token belongs to: the stand-in's own, or one that installed the app. */
  private callerOf(token: string): Identity | undefined {
    const { store, oauth } = this.parts;
    return token === store.identity.botToken ? store.identity : oauth.installed.get(token);
  }

  private dispatch(
    method: string,
    args: Obj,
    authorization: string | undefined,
  ): { answer: Answer; teamId?: string } {
    const injected = this.takeFailure(method, args);
    if (injected) return { answer: injectedAnswer(injected) };
    const bearer = authorization?.startsWith('Bearer ') ? authorization.slice('Bearer '.length) : undefined;
    const token = bearer ?? (typeof args.token === 'string' ? args.token : undefined);
    const own = this.ownAuth[method];
    if (own) return { answer: { status: 200, body: own(token, args, authorization) } };
    const handler = this.methods[method];
    if (!handler) return { answer: { status: 200, body: fail('unknown_method') } };
    if (!token) return { answer: { status: 200, body: fail('not_authed') } };
    // A rotated bot token past its 12 hours (oauth.ts).
    if (this.parts.oauth.expired(token)) return { answer: { status: 200, body: fail('token_expired') } };
    const caller = this.callerOf(token);
    if (!caller) return { answer: { status: 200, body: fail('invalid_auth') } };
    const retryAfterSec = this.limits?.admit(caller.teamId, method, args);
    if (retryAfterSec !== undefined) {
      return {
        answer: injectedAnswer({ error: 'ratelimited', opts: { retryAfterSec } }),
        teamId: caller.teamId,
      };
    }
    const body = this.parts.store.as(caller, () => handler(args, this.parts.store));
    return { answer: { status: 200, body }, teamId: caller.teamId };
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
