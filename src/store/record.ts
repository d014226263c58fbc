// A question as one Redis hash of string fields, and the defensive way back. Fields:
//   id server userId message holder state reason   plain strings
//   endedBy                                         plain string: who ended it, when a person did
//   timeoutMs createdAt deadline endedAt            decimal integers (ms; epoch ms from Redis TIME); the store
//                                                   writes no timeoutMs (it is deadline - createdAt, ~20 B saved)
//   schemaRef                                       the shared requestedSchema's content hash (store/schemas.ts)
//   requestedSchema outcome                         JSON; an accepted outcome whose holder has it loses its content
//                                                   ({"action":"accept","contentDropped":true}, read back as content {})
//   cardChannel cardTs                              the Slack card, once posted (the first of several)
//   moreCards                                       JSON [{channel, ts}]: the others, when there are several
//   reminders                                       count of reminder jobs (absent when none; not part of Question)
//   url                                             JSON: URL mode's link
//   draft:<userId>                                  JSON: that person's Draft of the form (not part of Question)
//   origin                                          JSON: who started the call, and where
//   serverInfo answerers                            JSON: the server's name/version; who may answer
//   source                                          'api' for an Automations question (absent: 'mcp')
//   place                                           JSON: where the card goes, when the asker said
//   client callbackUrl                              the API client that asked (a detached question); its webhook
//   metadata                                        JSON: the API client's own data about the question
//   round                                           JSON {id, round, keys}: the durable 2026 round requests it asks
import {
  isEndReason,
  isQuestionState,
  type Answerers,
  type CardRef,
  type Content,
  type Draft,
  type Origin,
  type Outcome,
  type Place,
  type Question,
  type QuestionSource,
  type QuestionState,
  type RoundRef,
  type ServerIdentity,
  type UrlLink,
} from '../relay/types.js';
import { StoreError } from './errors.js';

/**
 * The holder of a detached question (an API client's): no replica holds it, no lease is ever taken under this
 * name, so the orphan sweep never ends it, and its end goes to no inbox.
 */
export const DETACHED_HOLDER = '-';

/**
 * The fields the store writes at creation (state pending, no card, no outcome) as a flat [field, value, ...] list
 * for HSET, all but the schema and the times: the create script dates the record from Redis TIME, timeoutMs is
 * deadline - createdAt, and requestedSchema is shared (store/schemas.ts).
 */
export function createdFields(q: Question): string[] {
  const f = ['id', q.id, 'server', q.server, 'userId', q.userId, 'message', q.message, 'state', q.state];
  f.push('holder', q.holder, 'origin', JSON.stringify(q.origin));
  if (q.url) f.push('url', JSON.stringify(q.url));
  if (q.serverInfo) f.push('serverInfo', JSON.stringify(q.serverInfo));
  if (q.answerers) f.push('answerers', JSON.stringify(q.answerers));
  if (q.source && q.source !== 'mcp') f.push('source', q.source);
  if (q.place) f.push('place', JSON.stringify(q.place));
  if (q.client !== undefined) f.push('client', q.client);
  if (q.callbackUrl !== undefined) f.push('callbackUrl', q.callbackUrl);
  if (q.metadata !== undefined) f.push('metadata', JSON.stringify(q.metadata));
  if (q.round !== undefined) f.push('round', JSON.stringify(q.round));
  return f;
}

/** The fields written at creation (state pending, no card, no outcome), the schema inline and the times too. */
export function toHash(q: Question): Record<string, string> {
  return {
    ...pairs(createdFields(q)),
    requestedSchema: JSON.stringify(q.requestedSchema ?? null),
    timeoutMs: String(q.timeoutMs),
    createdAt: String(q.createdAt),
    deadline: String(q.deadline),
  };
}

/** The state a finish with this outcome moves a pending question to. */
export function stateFor(outcome: Outcome): QuestionState {
  if (outcome.action === 'accept') return 'accepted';
  return outcome.action === 'decline' ? 'declined' : 'cancelled';
}

function bad(id: string, field: string): StoreError {
  return new StoreError('bad_record', `Question ${id}: stored field "${field}" is missing or malformed`);
}

function int(h: Record<string, string>, field: string): number {
  const raw = h[field];
  const n = raw === undefined || !/^-?\d+$/.test(raw) ? NaN : Number(raw);
  if (!Number.isSafeInteger(n)) throw bad(h.id ?? '?', field);
  return n;
}

function str(h: Record<string, string>, field: string): string {
  const raw = h[field];
  if (raw === undefined) throw bad(h.id ?? '?', field);
  return raw;
}

function json(h: Record<string, string>, field: string): unknown {
  try {
    return JSON.parse(str(h, field)) as unknown;
  } catch (cause) {
    throw new StoreError('bad_record', `Question ${h.id ?? '?'}: field "${field}" is not JSON`, { cause });
  }
}

function isContent(v: unknown): v is Content {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  return Object.values(v).every(
    (x) =>
      ['string', 'number', 'boolean'].includes(typeof x) ||
      (Array.isArray(x) && x.every((s) => typeof s === 'string')),
  );
}

/** The hash field of one person's draft. */
export const draftField = (userId: string): string => `draft:${userId}`;

/** A stored draft (HGET of draftField), or undefined when there is none. */
export function parseDraft(id: string, userId: string, raw: string | null): Draft | undefined {
  if (raw === null) return undefined;
  const field = draftField(userId);
  const v = json({ id, [field]: raw }, field);
  if (typeof v !== 'object' || v === null || !('page' in v && 'answers' in v && 'reviewing' in v)) {
    throw bad(id, field);
  }
  const { page, answers, reviewing } = v;
  if (!Number.isSafeInteger(page) || typeof page !== 'number' || page < 0) throw bad(id, field);
  if (!isContent(answers) || typeof reviewing !== 'boolean') throw bad(id, field);
  return { page, answers, reviewing };
}

function parseOutcome(h: Record<string, string>): Outcome {
  const v = json(h, 'outcome');
  if (typeof v !== 'object' || v === null || !('action' in v)) throw bad(h.id ?? '?', 'outcome');
  if (v.action === 'decline' || v.action === 'cancel') return { action: v.action };
  if (v.action === 'accept' && 'content' in v && isContent(v.content)) {
    return { action: 'accept', content: v.content };
  }
  if (v.action === 'accept' && 'contentDropped' in v && v.contentDropped === true) {
    return { action: 'accept', content: {} };
  }
  throw bad(h.id ?? '?', 'outcome');
}

function parseUrl(h: Record<string, string>): UrlLink {
  const v = json(h, 'url');
  if (typeof v === 'object' && v !== null && 'url' in v && 'elicitationId' in v) {
    const replaces = 'replaces' in v ? v.replaces : undefined;
    if (
      typeof v.url === 'string' &&
      typeof v.elicitationId === 'string' &&
      (replaces === undefined || areCards(replaces))
    )
      return {
        url: v.url,
        elicitationId: v.elicitationId,
        ...(replaces ? { replaces: copyCards(replaces) } : {}),
      };
  }
  throw bad(h.id ?? '?', 'url');
}

const ORIGIN_PLACES = ['teamId', 'appId', 'channelId', 'threadTs', 'callId'] as const;

/** Records written before origins were stored have none: their requester was the person asked. */
function parseOrigin(h: Record<string, string>, userId: string): Origin {
  if (h.origin === undefined) return { userId };
  const v = json(h, 'origin');
  if (typeof v !== 'object' || v === null || !('userId' in v) || typeof v.userId !== 'string') {
    throw bad(h.id ?? '?', 'origin');
  }
  const origin: Origin = { userId: v.userId };
  for (const place of ORIGIN_PLACES) {
    const value = (v as Record<string, unknown>)[place];
    if (typeof value === 'string') origin[place] = value;
    else if (value !== undefined) throw bad(h.id ?? '?', 'origin');
  }
  return origin;
}

const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

function parseServerInfo(h: Record<string, string>): ServerIdentity {
  const v = json(h, 'serverInfo') as Partial<Record<keyof ServerIdentity, unknown>> | null;
  if (typeof v?.name !== 'string' || typeof v.version !== 'string') throw bad(h.id ?? '?', 'serverInfo');
  const title = typeof v.title === 'string' ? { title: v.title } : {};
  return { name: v.name, version: v.version, ...title };
}

function parseAnswerers(h: Record<string, string>): Answerers {
  const v = json(h, 'answerers') as Partial<Record<keyof Answerers, unknown>> | null;
  if (!isStrings(v?.users)) throw bad(h.id ?? '?', 'answerers');
  const { groups, channel } = v;
  const isGroup = (g: unknown): g is { id: string; members: string[] } =>
    typeof g === 'object' &&
    g !== null &&
    'id' in g &&
    typeof g.id === 'string' &&
    'members' in g &&
    isStrings(g.members);
  const groupsOk = groups === undefined || (Array.isArray(groups) && groups.every(isGroup));
  if (!groupsOk || (channel !== undefined && typeof channel !== 'string'))
    throw bad(h.id ?? '?', 'answerers');
  return { users: v.users, ...(groups ? { groups } : {}), ...(channel !== undefined ? { channel } : {}) };
}

function parseMetadata(h: Record<string, string>): Record<string, unknown> {
  const v = json(h, 'metadata');
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw bad(h.id ?? '?', 'metadata');
  return { ...v };
}

function parseRoundRef(h: Record<string, string>): RoundRef {
  const v = json(h, 'round') as Partial<Record<keyof RoundRef, unknown>> | null;
  const { id, round, keys } = v ?? {};
  if (typeof id !== 'string' || !Number.isSafeInteger(round) || !isStrings(keys))
    throw bad(h.id ?? '?', 'round');
  return { id, round: round as number, keys };
}

function parsePlace(h: Record<string, string>): Place {
  const v = json(h, 'place') as Partial<
    Record<'dm' | 'mpim' | 'mpims' | 'channel' | 'threadTs', unknown>
  > | null;
  if (typeof v?.dm === 'string') return { dm: v.dm };
  if (isStrings(v?.mpim)) return { mpim: v.mpim };
  if (Array.isArray(v?.mpims) && v.mpims.every(isStrings)) return { mpims: v.mpims };
  if (typeof v?.channel !== 'string') throw bad(h.id ?? '?', 'place');
  if (v.threadTs === undefined) return { channel: v.channel };
  if (typeof v.threadTs !== 'string') throw bad(h.id ?? '?', 'place');
  return { channel: v.channel, threadTs: v.threadTs };
}

function parseMoreCards(h: Record<string, string>): CardRef[] {
  const v = json(h, 'moreCards');
  if (!areCards(v)) throw bad(h.id ?? '?', 'moreCards');
  return copyCards(v);
}

const areCards = (v: unknown): v is CardRef[] =>
  Array.isArray(v) &&
  v.every(
    (c: unknown) =>
      typeof c === 'object' &&
      c !== null &&
      'channel' in c &&
      typeof c.channel === 'string' &&
      'ts' in c &&
      typeof c.ts === 'string',
  );

const copyCards = (cards: CardRef[]): CardRef[] => cards.map(({ channel, ts }) => ({ channel, ts }));

function parseSource(h: Record<string, string>): QuestionSource {
  if (h.source === 'api' || h.source === 'mcp') return h.source;
  throw bad(h.id ?? '?', 'source');
}

/** Reads a hash (HGETALL reply) back into a Question; `undefined` for an empty reply (no such key). */
export function parseQuestion(h: Record<string, string>): Question | undefined {
  if (Object.keys(h).length === 0) return undefined;
  const id = str(h, 'id');
  const state = str(h, 'state');
  if (!isQuestionState(state)) throw bad(id, 'state');
  const userId = str(h, 'userId');
  const q: Question = {
    id,
    server: str(h, 'server'),
    userId,
    origin: parseOrigin(h, userId),
    message: str(h, 'message'),
    requestedSchema: json(h, 'requestedSchema'),
    timeoutMs: 0,
    state,
    holder: str(h, 'holder'),
    createdAt: int(h, 'createdAt'),
    deadline: int(h, 'deadline'),
  };
  q.timeoutMs = h.timeoutMs === undefined ? q.deadline - q.createdAt : int(h, 'timeoutMs');
  if (h.cardChannel !== undefined && h.cardTs !== undefined)
    q.card = { channel: h.cardChannel, ts: h.cardTs };
  if (h.moreCards !== undefined) q.moreCards = parseMoreCards(h);
  if (h.url !== undefined) q.url = parseUrl(h);
  if (h.serverInfo !== undefined) q.serverInfo = parseServerInfo(h);
  if (h.answerers !== undefined) q.answerers = parseAnswerers(h);
  if (h.source !== undefined) q.source = parseSource(h);
  if (h.place !== undefined) q.place = parsePlace(h);
  if (h.client !== undefined) q.client = h.client;
  if (h.callbackUrl !== undefined) q.callbackUrl = h.callbackUrl;
  if (h.metadata !== undefined) q.metadata = parseMetadata(h);
  if (h.round !== undefined) q.round = parseRoundRef(h);
  if (state === 'pending') return q;
  q.outcome = parseOutcome(h);
  const reason = str(h, 'reason');
  if (!isEndReason(reason)) throw bad(id, 'reason');
  q.reason = reason;
  if (h.endedAt !== undefined) q.endedAt = int(h, 'endedAt');
  if (h.endedBy !== undefined) q.endedBy = h.endedBy;
  return q;
}

/** Turns a flat [field, value, field, value...] reply (HGETALL inside Lua) into an object. */
export function pairs(flat: readonly string[]): Record<string, string> {
  const h: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) h[flat[i] as string] = flat[i + 1] as string;
  return h;
}
