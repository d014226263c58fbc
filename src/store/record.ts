// A question as one Redis hash of string fields, and the defensive way back (each field's reader is in
// record-fields.ts). Fields:
//   id server userId message holder state reason   plain strings
//   endedBy                                         plain string: who ended it, when a person did
//   timeoutMs createdAt deadline endedAt            decimal integers (ms; epoch ms from Redis TIME); the store
//                                                   writes no timeoutMs (it is deadline - createdAt, ~20 B saved)
//   schemaRef                                       the shared requestedSchema's content hash (store/schemas.ts)
//   requestedSchema outcome                         JSON; an accepted outcome whose holder has it, and whose card
//                                                   shows it, loses its content ({"action":"accept","contentDropped":
//                                                   true}, read back as content {} with the question's
//                                                   contentDropped), unless keepsContent
//   cardChannel cardTs                              the Slack card, once posted (the first of several)
//   moreCards                                       JSON [{channel, ts}]: the others, when there are several
//   cardAfterEnd                                    '1' when the cards were attached after the end (not part of
//                                                   Question: the attacher, not the winner, updates them)
//   dropAfterCard endShown                          '1' each (not part of Question): an accepted answer's holder has
//                                                   it, but the card's poster has not drawn its end yet; the poster
//                                                   drew it before the holder had it (scripts.ts INBOX_ACK_LUA)
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
  type Draft,
  type Outcome,
  type Question,
  type QuestionState,
} from '../relay/types.js';
import {
  bad,
  int,
  isContent,
  json,
  parseAnswerers,
  parseMetadata,
  parseMoreCards,
  parseOrigin,
  parseOutcome,
  parsePlace,
  parseRoundRef,
  parseServerInfo,
  parseSource,
  parseUrl,
  str,
} from './record-fields.js';
import { StoreError } from './errors.js';

/**
 * The holder of a detached question (an API client's): no replica holds it, no lease is ever taken under this
 * name, so the orphan sweep never ends it, and its end goes to no inbox.
 */
export const DETACHED_HOLDER = '-';

/**
 * The fields the store writes at creation (state pending, no card, no outcome), all but the schema and the
 * times: the create script dates the record from Redis TIME, timeoutMs is deadline - createdAt, and
 * requestedSchema is shared (store/schemas.ts).
 */
export function createdFields(q: Question): Record<string, string> {
  const { id, server, userId, message, state, holder } = q;
  const f: Record<string, string> = { id, server, userId, message, state, holder };
  f.origin = JSON.stringify(q.origin);
  if (q.url) f.url = JSON.stringify(q.url);
  if (q.serverInfo) f.serverInfo = JSON.stringify(q.serverInfo);
  if (q.answerers) f.answerers = JSON.stringify(q.answerers);
  if (q.source && q.source !== 'mcp') f.source = q.source;
  if (q.place) f.place = JSON.stringify(q.place);
  if (q.client !== undefined) f.client = q.client;
  if (q.callbackUrl !== undefined) f.callbackUrl = q.callbackUrl;
  if (q.metadata !== undefined) f.metadata = JSON.stringify(q.metadata);
  if (q.round !== undefined) f.round = JSON.stringify(q.round);
  return f;
}

/**
 * A record's fields as the one JSON argument CREATE_LUA decodes: one argument instead of two per field, since
 * each argument costs both ioredis and Redis (~0.25 µs each on the 2-core machine, issue #19 goal 3). A lone
 * surrogate, which JSON.stringify escapes and Redis's cjson refuses, goes as U+FFFD, as a field sent on its own
 * always did (UTF-8 has no lone surrogates).
 */
export function fieldsJson(fields: Record<string, string>): string {
  const json = JSON.stringify(fields);
  if (!LONE_SURROGATE_ESCAPE.test(json)) return json;
  const wellFormed = Object.entries(fields).map(([k, v]) => [k, v.toWellFormed()]);
  return JSON.stringify(Object.fromEntries(wellFormed));
}

/** How JSON.stringify writes a surrogate (paired ones are written as they are, so only a lone one matches). */
const LONE_SURROGATE_ESCAPE = /\\ud[89a-f]/;

/** The fields written at creation (state pending, no card, no outcome), the schema inline and the times too. */
export function toHash(q: Question): Record<string, string> {
  return {
    ...createdFields(q),
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

/**
 * A question as read back from its record. `contentDropped`: it was accepted, and its answer's content is no
 * longer kept (its holder had it); `outcome.content` is then {}, which is not what was answered.
 */
export type StoredQuestion = Question & { contentDropped?: true };

/**
 * Whether an accepted answer's content stays in the record once its holder has it (the others' is dropped,
 * INBOX_ACK_LUA: needed only until then, and until the card shows it). A durable round's question is recorded in its round by whichever
 * replica reads its end; an API call's question (`origin.callId`) is read by the call's client, whose
 * GET /api/v1/questions/{id} answers exactly what the MCP server received: both are kept, as a detached
 * question's are, until the record expires.
 */
export function keepsContent(question: Question): boolean {
  return question.round !== undefined || question.origin.callId !== undefined;
}

/** Reads a hash (HGETALL reply) back into a Question; `undefined` for an empty reply (no such key). */
export function parseQuestion(h: Record<string, string>): StoredQuestion | undefined {
  if (Object.keys(h).length === 0) return undefined;
  const id = str(h, 'id');
  const state = str(h, 'state');
  if (!isQuestionState(state)) throw bad(id, 'state');
  const userId = str(h, 'userId');
  const q: StoredQuestion = {
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
  addOptional(q, h);
  if (state !== 'pending') addEnd(q, h);
  return q;
}

/** The fields a question has only when it was asked so (URL mode, an API question, a round) or has a card. */
function addOptional(q: StoredQuestion, h: Record<string, string>): void {
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
}

/** What an ended question has: its outcome, why it ended, and when and by whom when the record says. */
function addEnd(q: StoredQuestion, h: Record<string, string>): void {
  const { outcome, contentDropped } = parseOutcome(h);
  q.outcome = outcome;
  if (contentDropped) q.contentDropped = true;
  const reason = str(h, 'reason');
  if (!isEndReason(reason)) throw bad(q.id, 'reason');
  q.reason = reason;
  if (h.endedAt !== undefined) q.endedAt = int(h, 'endedAt');
  if (h.endedBy !== undefined) q.endedBy = h.endedBy;
}

/** A parsed JSON value that is an object whose every value is a string. */
function isStringRecord(v: unknown): v is Record<string, string> {
  return (
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    Object.values(v).every((value) => typeof value === 'string')
  );
}

/**
 * A record sent by a script as one JSON object of strings (RECORD_JSON_LUA's cjson.encode of the hash's fields);
 * `bad_record` when it is not one.
 */
export function recordFromJson(text: string): Record<string, string> {
  let record: unknown;
  try {
    record = JSON.parse(text);
  } catch (cause) {
    throw new StoreError('bad_record', 'A stored question record is not JSON', { cause });
  }
  if (!isStringRecord(record))
    throw new StoreError('bad_record', 'A stored question record is not an object of strings');
  return record;
}

/** Turns a flat [field, value, field, value...] reply (HGETALL inside Lua) into an object. */
export function pairs(flat: readonly string[]): Record<string, string> {
  const h: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) h[flat[i] as string] = flat[i + 1] as string;
  return h;
}
