// In-memory workspace state of the Slack stand-in: messages, views, trigger_ids, DMs and users.
import { randomBytes } from 'node:crypto';
import type { Obj } from './blockkit-check.js';
import { isObj } from './blockkit-check.js';
import type { StandinFile } from './methods-files.js';

export interface PostedMessage {
  channel: string;
  ts: string;
  text?: string;
  blocks?: unknown[];
  /** How many times chat.update (or a replacing response_url) changed it. */
  updates: number;
  /** Files shared with the message (files.completeUploadExternal). */
  files?: Obj[];
  /** A reply in the thread of this message ts (chat.postMessage's thread_ts). */
  threadTs?: string;
}

export interface EphemeralMessage {
  channel: string;
  userId: string;
  text?: string;
  blocks?: unknown[];
}

export interface OpenedView {
  id: string;
  userId: string;
  /** The view as Slack returns it (id, type, blocks, callback_id, private_metadata, state, hash, ...). */
  view: Obj;
  /** False once submitted-and-closed, closed by the user, or cleared. */
  open: boolean;
  /** Field errors from the last `response_action: "errors"`, by block_id. */
  errors?: Record<string, string>;
  /** Options the app suggested for its external selects (block_suggestion), by action_id. */
  suggestions?: Record<string, Obj[]>;
}

export interface StandinUser {
  name: string;
  realName?: string;
  /** e.g. `en-US`, `zh-CN`; users.info returns it with include_locale. */
  locale?: string;
  /** IANA zone, e.g. `Europe/Berlin`. */
  tz?: string;
  /** A deactivated account: users.info says `deleted: true`, conversations.open refuses `user_disabled`. */
  deleted?: boolean;
}

/** Who the stand-in's workspace and bot are. */
export interface Identity {
  /** The workspace, or for an org-wide install's token the org (E…), whose token this is. */
  teamId: string;
  /** Set for an org-wide install's token (Enterprise Grid): the org, as auth.test names it. */
  enterpriseId?: string;
  teamDomain: string;
  botUserId: string;
  botId: string;
  appId: string;
  botToken: string;
  /**
   * The bot token's scopes (the installed app's `oauth_config.scopes.bot`): a method called on a conversation
   * type whose scope is not among them answers `missing_scope` (scopes.ts). Undefined: every scope.
   */
  scopes?: readonly string[];
}

/** The four conversation types Slack's Conversations API tells apart, each with its own scopes. */
export type ConversationType = 'public_channel' | 'private_channel' | 'im' | 'mpim';

interface Trigger {
  userId: string;
  issuedAt: number;
  used: boolean;
}

/** trigger_ids live 3 s and are single use (api.slack.com/docs/triggers). */
export const TRIGGER_TTL_MS = 3000;

const shortId = (): string => randomBytes(4).toString('base64url').slice(0, 5);

export class Store {
  readonly messages = new Map<string, PostedMessage>();
  readonly ephemerals: EphemeralMessage[] = [];
  readonly views = new Map<string, OpenedView>();
  /** The open modal stack of each user, root first. */
  readonly stacks = new Map<string, string[]>();
  /**
   * Each person's Home view per workspace (`homeKey`): Slack keeps one per app, person and workspace, so an
   * Enterprise Grid user (one W… id) has a Home of its own in each workspace that installed the app.
   */
  readonly homes = new Map<string, Obj>();
  /** Uploads by file id (methods-files.ts). */
  readonly files = new Map<string, StandinFile>();
  /** The stand-in's own origin (`http://127.0.0.1:PORT`), for the URLs it hands out; set once listening. */
  origin = '';
  readonly triggers = new Map<string, Trigger>();
  /** Archived conversations (standin.archive): posts answer `is_archived`, updates `is_inactive`. */
  readonly archived = new Set<string>();
  private readonly dms = new Map<string, string>();
  private readonly mpims = new Map<string, string>();
  private seq = 0;

  /** The workspace whose token made the call being answered; the stand-in's own between calls. */
  private caller: Identity | undefined;

  constructor(
    private readonly own: Identity,
    private readonly clock: () => number,
    readonly users: Record<string, StandinUser> = {},
    /** Members of each user group (S… id), as usergroups.users.list answers. */
    readonly usergroups: Record<string, string[]> = {},
    /** Members of each channel (C…/G… id), as conversations.members answers; other channels are not found. */
    readonly channelMembers: Record<string, string[]> = {},
    /** Members (the bot aside) of a C…/G… channel not in channelMembers; without them it is not found. */
    private readonly unlistedMembers?: readonly string[],
  ) {}

  /** Who the current call's workspace and bot are (auth.test, message and view objects answer as them). */
  get identity(): Identity {
    return this.caller ?? this.own;
  }

  /** Answers one synchronous Web API call as the workspace whose token made it. */
  as<T>(caller: Identity, answer: () => T): T {
    this.caller = caller;
    try {
      return answer();
    } finally {
      this.caller = undefined;
    }
  }

  next(): number {
    this.seq += 1;
    return this.seq;
  }

  now(): number {
    return this.clock();
  }

  /** A message ts, unique across the stand-in (`<unix seconds>.<6-digit sequence>`). */
  nextTs(): string {
    return `${Math.floor(this.clock() / 1000)}.${String(this.next()).padStart(6, '0')}`;
  }

  dmChannelOf(userId: string): string {
    let id = this.dms.get(userId);
    if (!id) {
      id = `D0${(0x10000000 + this.next()).toString(36).toUpperCase()}`;
      this.dms.set(userId, id);
    }
    return id;
  }

  /** The multi-person DM of these people and the bot (conversations.open with several users): one per set. */
  mpimChannelOf(userIds: readonly string[]): string {
    const key = [...userIds].sort().join(',');
    let id = this.mpims.get(key);
    if (!id) {
      id = `G0${(0x10000000 + this.next()).toString(36).toUpperCase()}`;
      this.mpims.set(key, id);
    }
    return id;
  }

  /** True for a DM id that conversations.open (or dmChannelOf) handed out. */
  isDmChannel(id: string): boolean {
    return [...this.dms.values()].includes(id);
  }

  /**
   * The members of a DM or multi-person DM the stand-in handed out (its people and the bot), of a listed
   * channel, of an unlisted channel when unlistedMembers is set (they and the bot), or undefined for a
   * conversation it does not know.
   */
  membersOf(id: string): string[] | undefined {
    const listed = this.channelMembers[id];
    if (listed) return listed;
    const dm = [...this.dms].find(([, channel]) => channel === id);
    const mpim = [...this.mpims].find(([, channel]) => channel === id);
    const unlisted = /^[CG]/.test(id) ? this.unlistedMembers : undefined;
    const people = dm ? [dm[0]] : (mpim?.[0].split(',') ?? unlisted);
    return people && [...people, this.identity.botUserId];
  }

  /** A conversation's type: its DMs and multi-person DMs as handed out, else a G… id is a private channel. */
  typeOf(id: string): ConversationType {
    if (this.isDmChannel(id)) return 'im';
    if ([...this.mpims.values()].includes(id)) return 'mpim';
    return id.startsWith('G') ? 'private_channel' : 'public_channel';
  }

  /** Slack accepts a user id as chat.postMessage channel and posts to the bot's DM with that user. */
  resolveChannel(channel: string): string {
    return /^[UW][A-Z0-9]+$/.test(channel) ? this.dmChannelOf(channel) : channel;
  }

  message(channel: string, ts: string): PostedMessage | undefined {
    return this.messages.get(`${this.resolveChannel(channel)}|${ts}`);
  }

  putMessage(m: PostedMessage): void {
    this.messages.set(`${m.channel}|${m.ts}`, m);
  }

  issueTrigger(userId: string): string {
    // Shaped like Slack's (`<digits>.<digits>.<hex>`); unique by the sequence number.
    const id = `${Math.floor(this.clock() / 1000)}.${this.next()}.${randomBytes(16).toString('hex')}`;
    this.triggers.set(id, { userId, issuedAt: this.clock(), used: false });
    return id;
  }

  /** Exchanges a trigger_id for its user, or returns Slack's error code. */
  exchangeTrigger(id: unknown): { userId: string } | { error: string } {
    const trigger = typeof id === 'string' ? this.triggers.get(id) : undefined;
    if (!trigger) return { error: 'invalid_trigger_id' };
    if (trigger.used) return { error: 'exchanged_trigger_id' };
    if (this.clock() - trigger.issuedAt > TRIGGER_TTL_MS) return { error: 'expired_trigger_id' };
    trigger.used = true;
    return { userId: trigger.userId };
  }

  user(userId: string): StandinUser {
    return this.users[userId] ?? { name: userId.toLowerCase() };
  }

  stackOf(userId: string): string[] {
    let stack = this.stacks.get(userId);
    if (!stack) this.stacks.set(userId, (stack = []));
    return stack;
  }

  findView(viewId: unknown, externalId: unknown): OpenedView | undefined {
    if (typeof viewId === 'string' && viewId) return this.views.get(viewId);
    if (typeof externalId !== 'string' || !externalId) return undefined;
    return [...this.views.values()].find((v) => v.open && v.view.external_id === externalId);
  }

  /** Removes a view from its user's stack and marks it closed. */
  closeView(viewId: string): void {
    const stored = this.views.get(viewId);
    if (!stored) return;
    stored.open = false;
    const stack = this.stackOf(stored.userId);
    const at = stack.indexOf(viewId);
    if (at >= 0) stack.splice(at, 1);
  }

  hash(): string {
    return `${Math.floor(this.clock() / 1000)}.${randomBytes(6).toString('hex')}`;
  }
}

/** Where `userId`'s Home view in workspace `teamId` is kept in `Store.homes`. */
export const homeKey = (teamId: string, userId: string): string => `${teamId} ${userId}`;

/** Slack fills in block_id (and action_id) when the app leaves them out; interaction payloads carry those. */
export function withGeneratedIds(blocks: unknown): unknown {
  if (!Array.isArray(blocks)) return blocks;
  return (structuredClone(blocks) as unknown[]).map((b) => {
    if (!isObj(b)) return b;
    if (b.block_id === undefined) b.block_id = shortId();
    const actions = b.type === 'actions' && Array.isArray(b.elements) ? (b.elements as unknown[]) : [];
    for (const el of [b.element, b.accessory, ...actions]) {
      if (isObj(el) && el.action_id === undefined && el.type !== 'image') el.action_id = shortId();
    }
    return b;
  });
}
