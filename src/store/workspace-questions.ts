// A workspace's pending questions, found when the app leaves that workspace (app_uninstalled, tokens_revoked).
// There is no per-workspace index: the due index holds every pending question, and it is read with ZSCAN in
// pages whose records are read in one call each. That costs one pass over every pending question, which is
// fine for an event that comes once per uninstall, while an index of its own would cost a write on every
// create and finish of every question for the sake of that rare event.
import type { Keys, RedisClient, StoreLogger } from '../redis/index.js';
import type { Question, WorkspaceScope } from '../relay/types.js';
import { readOrSkip } from './pending.js';
import { readRecords } from './schemas.js';
import type { StoreScripts } from './scripts.js';

/** Question ids read per ZSCAN page (and records per read). */
const SCAN_PAGE = 500;

/** The ids of the pending questions asked in `scope`'s workspace (or through its org's installation). */
export async function pendingIn(
  cmd: RedisClient & StoreScripts,
  k: Keys,
  scope: WorkspaceScope,
  logger: StoreLogger,
): Promise<string[]> {
  const found = new Set<string>();
  let cursor = '0';
  do {
    const [next, flat] = await cmd.zscan(k.due, cursor, 'COUNT', SCAN_PAGE);
    cursor = next;
    // ZSCAN answers member, score, member, score, ...
    const ids = flat.filter((_, i) => i % 2 === 0);
    const records = await readRecords(
      cmd,
      ids.map((id) => k.question(id)),
      k.schema(''),
    );
    records.forEach((record, i) => {
      const question = readOrSkip(record, ids[i] ?? '', logger, 'pendingIn');
      if (question?.state === 'pending' && inScope(question, scope)) found.add(question.id);
    });
  } while (cursor !== '0');
  return [...found];
}

function inScope(question: Question, scope: WorkspaceScope): boolean {
  if (scope === 'every_workspace') return true;
  const { teamId, enterpriseId } = question.origin;
  if (!('teamId' in scope)) return enterpriseId === scope.enterpriseId;
  return teamId === scope.teamId && (scope.enterpriseId === undefined || enterpriseId === scope.enterpriseId);
}
