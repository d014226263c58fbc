// A question's requestedSchema is stored once per distinct schema, not once per question (issue #19 goal 5):
// the record names it by `schemaRef`, the SHA-256 of its JSON, and the JSON sits in `{q}:schema:<ref>`. A
// 13-field schema is ~1.6 KB, and it pushes the record hash out of Redis's compact listpack encoding (values
// over 64 bytes), so sharing it cuts a pending question from ~4 KB to ~1.4 KB.
//
// Lifetime: a TTL, not a reference count. Every record that names a schema expires (timeout + retention at
// creation, retention after its end), and each of those writes pushes the schema's expiry to at least the
// record's (CREATE_LUA, FINISH_LUA), so the schema outlives every record that names it; a crash between
// steps cannot leave a count wrong, because there is none. It is deleted by Redis once the last record is gone.
//
// Reads put the JSON back under `requestedSchema` inside the same script (READ_LUA, FINISH_LUA), so parsing
// is unchanged and records written before this (the schema inline, no schemaRef) read as they always did.
import { createHash } from 'node:crypto';
import { recordFromJson } from './record.js';
import type { StoreScripts } from './scripts.js';

/** The record field naming a shared schema. */
export const SCHEMA_REF_FIELD = 'schemaRef';

/** Refs of the schemas seen lately, by JSON: questions of one form share one, so most creates skip the hash. */
const recentRefs = new Map<string, string>();
/** Distinct schemas kept in recentRefs; past it the map starts over (a bound, not an LRU: a miss only hashes). */
const RECENT_REFS = 256;

/** A schema's content address: base64url SHA-256 of its JSON (43 characters, under listpack's 64). */
export function schemaRef(json: string): string {
  let ref = recentRefs.get(json);
  if (ref === undefined) {
    ref = createHash('sha256').update(json).digest('base64url');
    if (recentRefs.size >= RECENT_REFS) recentRefs.clear();
    recentRefs.set(json, ref);
  }
  return ref;
}

/**
 * Where a record's requestedSchema (`json`) goes: the field naming it by ref, and the JSON to store once. A null
 * schema (URL mode) stays inline: 4 bytes, nothing to share.
 */
export function shareSchema(json: string): {
  field: [string, string];
  schema?: { ref: string; json: string };
} {
  if (json === 'null') return { field: ['requestedSchema', json] };
  const ref = schemaRef(json);
  return { field: [SCHEMA_REF_FIELD, ref], schema: { ref, json } };
}

/**
 * The records of these question keys (empty for a missing key), each with its shared schema put back, in one
 * round trip; READ_LUA sends each as JSON.
 */
export async function readRecords(
  redis: Pick<StoreScripts, 'questionRead'>,
  questionKeys: readonly string[],
  schemaPrefix: string,
): Promise<Record<string, string>[]> {
  if (questionKeys.length === 0) return [];
  const replies = (await redis.questionRead(questionKeys.length, ...questionKeys, schemaPrefix)) as string[];
  return replies.map(recordFromJson);
}
