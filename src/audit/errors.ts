// The audit error family.
import { RelayError } from '../relay/errors.js';

export type AuditErrorCode =
  /** A cursor that no list() of this log gave out (or of the other log, after a switch to PostgreSQL). */
  | 'bad_cursor'
  /** PostgreSQL could not be reached or refused a statement. */
  | 'postgres_error';

/** RelayError's constructor, typed by its `Code`, takes only a AuditErrorCode and keeps `cause` natively. */
export class AuditError extends RelayError<AuditErrorCode> {
  override name = 'AuditError';
}

/** Cursors are opaque to clients: base64url of `<log kind>:<position>`. */
export function encodeCursor(kind: 'r' | 'p', position: string): string {
  return Buffer.from(`${kind}:${position}`).toString('base64url');
}

/**
 * The position a cursor holds, checked by the log's own `valid` (a Redis stream id, a PostgreSQL row's `seq`): a
 * position this log could not have given out would otherwise reach the query and fail there (an XRANGE error
 * reply, a failed ::bigint cast), answered as the bot's fault instead of the client's.
 */
export function decodeCursor(kind: 'r' | 'p', cursor: string, valid: (position: string) => boolean): string {
  const text = Buffer.from(cursor, 'base64url').toString();
  const position = text.slice(2);
  if (!text.startsWith(`${kind}:`) || !valid(position))
    throw new AuditError('bad_cursor', 'cursor is not one this audit log gave out');
  return position;
}
