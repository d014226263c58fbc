// Reading a question's hash back defensively, field by field: the plain-string and integer readers, and each
// JSON field's shape checked (record.ts lists the fields). A missing or malformed field is a StoreError
// 'bad_record' naming it.
import type {
  Answerers,
  CardRef,
  Content,
  Origin,
  Outcome,
  Place,
  QuestionSource,
  RoundRef,
  ServerIdentity,
  UrlLink,
} from '../relay/types.js';
import { StoreError } from './errors.js';

/** The error for a missing or malformed `field` of question `id`. */
export function bad(id: string, field: string): StoreError {
  return new StoreError('bad_record', `Question ${id}: stored field "${field}" is missing or malformed`);
}

/** A decimal integer field (ms or epoch ms); `bad` when missing or not a safe integer. */
export function int(h: Record<string, string>, field: string): number {
  const raw = h[field];
  const n = raw === undefined || !/^-?\d+$/.test(raw) ? NaN : Number(raw);
  if (!Number.isSafeInteger(n)) throw bad(h.id ?? '?', field);
  return n;
}

/** A plain string field; `bad` when missing. */
export function str(h: Record<string, string>, field: string): string {
  const raw = h[field];
  if (raw === undefined) throw bad(h.id ?? '?', field);
  return raw;
}

/** A JSON field, parsed; `bad_record` when missing or not JSON. */
export function json(h: Record<string, string>, field: string): unknown {
  try {
    return JSON.parse(str(h, field)) as unknown;
  } catch (cause) {
    throw new StoreError('bad_record', `Question ${h.id ?? '?'}: field "${field}" is not JSON`, { cause });
  }
}

/** Form content: each value a string, number, boolean or list of strings. */
export function isContent(v: unknown): v is Content {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  return Object.values(v).every(
    (x) =>
      ['string', 'number', 'boolean'].includes(typeof x) ||
      (Array.isArray(x) && x.every((s) => typeof s === 'string')),
  );
}

/**
 * The stored outcome. An accepted one whose content was dropped once its holder had it (DROPPED_OUTCOME) reads
 * as content {} for the relay, which only needs to know it was accepted, with `contentDropped` so that a reader
 * that shows answers (the API) never presents that {} as the answer.
 */
export function parseOutcome(h: Record<string, string>): { outcome: Outcome; contentDropped: boolean } {
  const v = json(h, 'outcome');
  if (typeof v !== 'object' || v === null || !('action' in v)) throw bad(h.id ?? '?', 'outcome');
  if (v.action === 'decline' || v.action === 'cancel')
    return { outcome: { action: v.action }, contentDropped: false };
  if (v.action === 'accept' && 'content' in v && isContent(v.content)) {
    return { outcome: { action: 'accept', content: v.content }, contentDropped: false };
  }
  if (v.action === 'accept' && 'contentDropped' in v && v.contentDropped === true) {
    return { outcome: { action: 'accept', content: {} }, contentDropped: true };
  }
  throw bad(h.id ?? '?', 'outcome');
}

export function parseUrl(h: Record<string, string>): UrlLink {
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

const ORIGIN_PLACES = ['teamId', 'enterpriseId', 'appId', 'channelId', 'threadTs', 'callId'] as const;

/** Records written before origins were stored have none: their requester was the person asked. */
export function parseOrigin(h: Record<string, string>, userId: string): Origin {
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

export function parseServerInfo(h: Record<string, string>): ServerIdentity {
  const v = json(h, 'serverInfo') as Partial<Record<keyof ServerIdentity, unknown>> | null;
  if (typeof v?.name !== 'string' || typeof v.version !== 'string') throw bad(h.id ?? '?', 'serverInfo');
  const title = typeof v.title === 'string' ? { title: v.title } : {};
  return { name: v.name, version: v.version, ...title };
}

export function parseAnswerers(h: Record<string, string>): Answerers {
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

export function parseMetadata(h: Record<string, string>): Record<string, unknown> {
  const v = json(h, 'metadata');
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw bad(h.id ?? '?', 'metadata');
  return { ...v };
}

export function parseRoundRef(h: Record<string, string>): RoundRef {
  const v = json(h, 'round') as Partial<Record<keyof RoundRef, unknown>> | null;
  const { id, round, keys } = v ?? {};
  if (typeof id !== 'string' || !Number.isSafeInteger(round) || !isStrings(keys))
    throw bad(h.id ?? '?', 'round');
  return { id, round: round as number, keys };
}

export function parsePlace(h: Record<string, string>): Place {
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

export function parseMoreCards(h: Record<string, string>): CardRef[] {
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

export function parseSource(h: Record<string, string>): QuestionSource {
  if (h.source === 'api' || h.source === 'mcp') return h.source;
  throw bad(h.id ?? '?', 'source');
}
