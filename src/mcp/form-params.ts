// The SDK's check of form-mode `elicitation/create` params, with the requested schema's part remembered by its
// JSON text: a tool's questions share one schema, and checking a 13-field schema against the SDK's union of
// field kinds took ~190 µs per question (most of it building the issues of the kinds a field is not).
import { ElicitRequestFormParamsSchema } from '@modelcontextprotocol/core';

/** The params without `requestedSchema` (the SDK's own object, one key fewer). */
const BESIDE_SCHEMA = ElicitRequestFormParamsSchema.omit({ requestedSchema: true });
const REQUESTED_SCHEMA = ElicitRequestFormParamsSchema.shape.requestedSchema;

/** JSON texts of schemas that passed lately. A bound, not an LRU: past it the set starts over. */
const passedLately = new Set<string>();
const RECENT_SCHEMAS = 256;

export interface FormIssue {
  path: PropertyKey[];
  message: string;
}

/**
 * The params' message, or the first issue the SDK's schema finds in them: the same as its parse of the whole
 * object, whose keys it checks in order, `requestedSchema` last.
 */
export function checkFormParams(
  raw: Record<string, unknown>,
): { ok: true; message: string } | { ok: false; issue: FormIssue | undefined } {
  const { requestedSchema, ...beside } = raw;
  const rest = BESIDE_SCHEMA.safeParse(beside);
  if (!rest.success) return { ok: false, issue: rest.error.issues[0] };
  const text = jsonText(requestedSchema);
  if (text !== undefined && passedLately.has(text)) return { ok: true, message: rest.data.message };
  const schema = REQUESTED_SCHEMA.safeParse(requestedSchema);
  if (!schema.success) {
    const first = schema.error.issues[0];
    return { ok: false, issue: first && { ...first, path: ['requestedSchema', ...first.path] } };
  }
  if (text !== undefined) {
    if (passedLately.size >= RECENT_SCHEMAS) passedLately.clear();
    passedLately.add(text);
  }
  return { ok: true, message: rest.data.message };
}

/** The JSON text of an object (the memory's key); undefined for anything else, which is checked each time. */
function jsonText(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  try {
    return JSON.stringify(value);
  } catch {
    // Not JSON (a BigInt, a cycle): nothing that came over the wire.
    return undefined;
  }
}
