// Reads a round's three Redis hashes back as a Round (see redis-store.ts for the fields), and says how its
// requestState is written so that it comes back whole; a record that cannot be read (lost fields, foreign JSON)
// is a StoreError 'bad_record', never half a round.
import type { Origin } from '../relay/types.js';
import { StoreError } from '../redis/index.js';
import type { Round, RoundRequest } from './types.js';

/** The round `id` from its hashes; undefined when the round hash is gone (finished or expired). */
export function parseRound(
  id: string,
  hash: Record<string, string>,
  requests: Record<string, string>,
  answers: Record<string, string>,
): Round | undefined {
  const { server, tool, args, origin, round, deadline, status, order } = hash;
  if (server === undefined) return undefined;
  if (tool === undefined || args === undefined || origin === undefined || order === undefined) {
    throw badRecord(id, 'fields missing');
  }
  if (status !== 'waiting' && status !== 'claimed') throw badRecord(id, `status ${String(status)}`);
  const keys = stringList(id, order);
  return {
    id,
    server,
    tool,
    args: objectOf(id, args),
    origin: originOf(id, origin),
    round: Number(round),
    deadline: Number(deadline),
    status,
    ...requestStateOf(id, hash),
    ...(hash.holder === undefined ? {} : { holder: hash.holder }),
    ...(hash.claimant === undefined ? {} : { claimant: hash.claimant }),
    ...(hash.leaseUntil === undefined ? {} : { leaseUntil: Number(hash.leaseUntil) }),
    requests: keys.map((key) => requestOf(id, key, requests[key], hash[`question:${key}`])),
    answers: Object.fromEntries(Object.entries(answers).map(([key, json]) => [key, parsed(id, json)])),
  };
}

/**
 * A round's `requestState` as hash fields, to come back byte for byte (the spec's "echo back the exact value").
 * ioredis writes a string as UTF-8, which has no bytes for a lone surrogate (it would come back as U+FFFD): such
 * a state is also kept as JSON text in `requestStateJson` (the surrogates as `\u` escapes, so plain UTF-8),
 * which readers prefer. `requestState` is written as before either way, so a replica not yet updated (a rolling
 * deploy) reads every other state as it did, and sends a lossy one the server refuses rather than none.
 */
export function requestStateFields(state: string | undefined): {
  requestState?: string;
  requestStateJson?: string;
} {
  if (state === undefined) return {};
  return state.isWellFormed()
    ? { requestState: state }
    : { requestState: state, requestStateJson: JSON.stringify(state) };
}

/**
 * The `requestState` requestStateFields wrote; a record written before `requestStateJson` existed as stored. The
 * JSON form counts only while it is the lossless form of the `requestState` beside it: a replica not yet updated
 * moves a round on without touching it, and the state it wrote then is the round's.
 */
function requestStateOf(id: string, hash: Record<string, string>): { requestState?: string } {
  const { requestState, requestStateJson } = hash;
  if (requestState === undefined) return {};
  if (requestStateJson === undefined) return { requestState };
  const value = parsed(id, requestStateJson);
  if (typeof value !== 'string') throw badRecord(id, 'requestState unreadable');
  return {
    requestState: Buffer.from(value, 'utf8').toString('utf8') === requestState ? value : requestState,
  };
}

function requestOf(id: string, key: string, json: string | undefined, questionId: string | undefined) {
  if (json === undefined) throw badRecord(id, `request ${key} missing`);
  const request: RoundRequest = { key, request: parsed(id, json) };
  return questionId === undefined ? request : { ...request, questionId };
}

function parsed(id: string, json: string): unknown {
  try {
    return JSON.parse(json);
  } catch (cause) {
    throw badRecord(id, 'JSON unreadable', cause);
  }
}

function objectOf(id: string, json: string): Record<string, unknown> {
  const value = parsed(id, json);
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw badRecord(id, 'not an object');
  return { ...value };
}

/** A round's `origin` field read back (StoreError 'bad_record' when it is not one). */
export function originOf(id: string, json: string): Origin {
  const value = objectOf(id, json);
  const { userId } = value;
  if (typeof userId !== 'string') throw badRecord(id, 'origin without userId');
  const text = (name: string): Record<string, string> =>
    typeof value[name] === 'string' ? { [name]: value[name] } : {};
  return {
    userId,
    ...text('teamId'),
    ...text('enterpriseId'),
    ...text('appId'),
    ...text('channelId'),
    ...text('threadTs'),
    ...text('callId'),
    ...text('runId'),
  };
}

function stringList(id: string, json: string): string[] {
  const value = parsed(id, json);
  if (!Array.isArray(value) || !value.every((v): v is string => typeof v === 'string')) {
    throw badRecord(id, 'request order unreadable');
  }
  return value;
}

function badRecord(id: string, what: string, cause?: unknown): StoreError {
  return new StoreError('bad_record', `round ${id} cannot be read: ${what}`, { cause });
}
