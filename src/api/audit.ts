// GET /api/v1/audit: the audit trail in stored order (oldest first but for events stored late), a page at a time (src/audit). The `default` client
// (ELICIT_RELAY_API_TOKEN, every right) reads every event; a named client only the events that name it. The
// name is safe to go by: the config file may not name a client `default` (src/config/api.ts refuses it).
import type { ServerResponse } from 'node:http';
import { AuditError, type AuditPage, type AuditQuery } from '../audit/index.js';
import { DEFAULT_API_CLIENT } from '../config/api.js';
import type { ApiClient } from './auth.js';
import { ApiError } from './errors.js';
import { sendJson } from './http.js';
import { validator } from './validate.js';

export interface AuditReader {
  list(query: AuditQuery): Promise<AuditPage>;
}

export async function listAudit(
  audit: AuditReader,
  client: ApiClient,
  params: URLSearchParams,
  res: ServerResponse,
): Promise<void> {
  const query = auditQuery(params);
  if (client.name !== DEFAULT_API_CLIENT) query.client = client.name;
  try {
    sendJson(res, 200, await audit.list(query));
  } catch (error) {
    if (error instanceof AuditError && error.code === 'bad_cursor') {
      throw new ApiError('invalid_request', '/cursor: not a cursor this API gave out');
    }
    throw error;
  }
}

/** The parameters GET /audit reads, as the OpenAPI document lists them. */
const AUDIT_PARAMETERS = ['since', 'until', 'server', 'user', 'client', 'cursor', 'limit'] as const;

/**
 * Refuses a parameter GET /audit does not read, as GET …/{id} refuses one besides `wait`: ignored, a misspelt
 * `sinse` would list every event from the first, and a misspelt `server` every server's.
 */
const knownParameters = validator<Record<string, string>>({
  type: 'object',
  additionalProperties: false,
  properties: Object.fromEntries(AUDIT_PARAMETERS.map((name) => [name, { type: 'string' }])),
});

function auditQuery(params: URLSearchParams): AuditQuery {
  knownParameters(Object.fromEntries(params));
  const query: AuditQuery = {};
  const since = time(params, 'since');
  const until = time(params, 'until');
  if (since !== undefined) query.since = since;
  if (until !== undefined) query.until = until;
  for (const key of ['server', 'user', 'client', 'cursor'] as const) {
    const value = params.get(key);
    if (value !== null) query[key] = value;
  }
  const limit = params.get('limit');
  if (limit !== null) {
    if (!/^\d{1,4}$/.test(limit) || Number(limit) < 1 || Number(limit) > 1000) {
      throw new ApiError('invalid_request', '/limit: must be an integer from 1 to 1000');
    }
    query.limit = Number(limit);
  }
  return query;
}

/**
 * An RFC 3339 date-time parameter, in epoch ms. A "+hh:mm" offset sent unescaped arrives as " hh:mm" (a query
 * reads "+" as a space): a space can be nothing else there, so it is read as the "+" it was.
 */
function time(params: URLSearchParams, key: 'since' | 'until'): number | undefined {
  const raw = params.get(key);
  if (raw === null) return undefined;
  const value = raw.replace(/ (\d\d:\d\d)$/, '+$1');
  const ms = RFC3339.test(value) && onTheCalendar(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(ms)) throw new ApiError('invalid_request', `/${key}: must be an RFC 3339 date-time`);
  return ms;
}

const RFC3339 = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)(?::(\d\d)(?:\.\d+)?)?(?:Z|[+-](\d\d):(\d\d))$/i;

/**
 * Whether each part is one the calendar and clock have: Date.parse reads 2026-02-30 as 2 March and T24:00 as
 * the next day, which would move a `since` by days without a word.
 */
function onTheCalendar(value: string): boolean {
  const [, y, mo, d, h, mi, s = '0', oh = '0', om = '0'] = RFC3339.exec(value) ?? [];
  const [year, month, day] = [Number(y), Number(mo), Number(d)];
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return (
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth &&
    Number(h) <= 23 &&
    Number(mi) <= 59 &&
    Number(s) <= 59 &&
    Number(oh) <= 23 &&
    Number(om) <= 59
  );
}
