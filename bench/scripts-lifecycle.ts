// A second floor for issue #19 goal 3b, between the raw flow (bench/raw-lifecycle.ts) and the store: the store's
// own create, finish and inbox-acknowledgement scripts driven directly by plain ioredis, with the arguments one
// real lifecycle sent (seen with MONITOR) and only the question and holder ids changed. It is the Redis work the
// store's guarantees take (the record and its indexes, the slot marker, the ended stream, the inbox entry and its
// acknowledgement) with almost no JavaScript around it: the store's ratio to it is what its own code costs, its
// ratio to the raw flow what the guarantees cost. Left out: the slot's BullMQ job (one per 60 s deadline slot).
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { CREATE_LUA, INBOX_ACK_LUA } from '../src/store/scripts.js';
import { FINISH_LUA } from '../src/store/finish-script.js';
import type { Flow } from './lifecycle.js';

const sha1 = (lua: string): string => createHash('sha1').update(lua).digest('hex');

const ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', a: '\x07', b: '\b', '\\': '\\' };

/**
 * An argument as MONITOR printed it (Redis's sdscatrepr: printable ASCII kept, other bytes escaped) after ioredis
 * turned its \\" back into ": the other escapes undone, byte by byte, and the bytes read as UTF-8.
 */
function unrepr(arg: string): string {
  const bytes = arg.replace(/\\(x[0-9a-f]{2}|.)/g, (_all, e: string) =>
    e.startsWith('x') && e.length === 3 ? String.fromCharCode(parseInt(e.slice(1), 16)) : (ESCAPES[e] ?? e),
  );
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** One lifecycle's script calls as sent: EVALSHA's arguments after the sha (numkeys, keys, args). */
export interface ScriptCalls {
  create: string[];
  finish: string[];
  /** The question id and holder id in those arguments, replaced by fresh ones per lifecycle. */
  questionId: string;
  holderId: string;
}

/** The create and finish EVALSHAs of one `flow.cycle()`, seen with MONITOR on a connection of its own. */
export async function captureScriptCalls(url: string, flow: Flow, holderId: string): Promise<ScriptCalls> {
  const probe = new Redis(url);
  const monitor = await probe.monitor();
  const seen = new Map<string, string[]>();
  const wanted = new Map([
    [sha1(CREATE_LUA), 'create'],
    [sha1(FINISH_LUA), 'finish'],
  ]);
  monitor.on('monitor', (_time: string, args: string[]) => {
    const name = wanted.get(args[1] ?? '');
    if ((args[0] ?? '').toLowerCase() === 'evalsha' && name && !seen.has(name))
      seen.set(name, args.slice(2).map(unrepr));
  });
  try {
    await flow.cycle();
    await probe.ping(); // MONITOR lines trail the commands; this marks the end.
  } finally {
    monitor.disconnect();
    probe.disconnect();
  }
  const create = seen.get('create');
  const finish = seen.get('finish');
  const questionId = /:question:([^:]+)$/.exec(create?.[1] ?? '')?.[1];
  if (!create || !finish || !questionId)
    throw new Error('captureScriptCalls: no create and finish EVALSHA seen');
  return { create, finish, questionId, holderId };
}

/** The scripts flow on its own three connections, holder `scripts-holder` (its own inbox). */
export async function scriptsFlow(url: string, calls: ScriptCalls): Promise<Flow> {
  const [holder, other, reader] = [new Redis(url), new Redis(url), new Redis(url)];
  const shas = await Promise.all(
    [CREATE_LUA, FINISH_LUA, INBOX_ACK_LUA].map((lua) => holder.script('LOAD', lua)),
  );
  const [createSha, finishSha, ackSha] = shas.map(String) as [string, string, string];
  const swap = (args: string[], id: string): string[] =>
    args.map((a) => a.split(calls.questionId).join(id).split(calls.holderId).join('scripts-holder'));
  const inboxPrefix = calls.finish.find((a) => a.endsWith(':inbox:'));
  if (inboxPrefix === undefined) throw new Error('scriptsFlow: no inbox prefix among the finish arguments');
  const inbox = `${inboxPrefix}scripts-holder`;
  const questionKey = (id: string): string => swap([calls.create[1] ?? ''], id)[0] ?? '';
  const waiting = new Map<string, () => void>();
  let running = true;
  let acking: Promise<unknown> | undefined;
  const readOnce = async (): Promise<void> => {
    // As the store's inbox does: each read goes out right behind the last batch's acknowledgement.
    const read = reader.xread('COUNT', 100, 'BLOCK', 1000, 'STREAMS', inbox, '0');
    await acking;
    acking = undefined;
    const entries = ((await read) ?? []).flatMap(([, batch]) => batch);
    if (entries.length === 0) return;
    // The holder's part: each entry's record parsed, its waiter woken, then the batch acknowledged.
    const ids = entries.map(([, fields]) => (JSON.parse(fields[3] ?? '{}') as { id: string }).id);
    for (const id of ids) waiting.get(id)?.();
    const keys = [inbox, ...ids.map(questionKey)];
    acking = reader.evalsha(ackSha, keys.length, ...keys, ...entries.map(([entryId]) => entryId));
  };
  const loop = (async () => {
    while (running) await readOnce().catch(() => undefined);
  })();
  let next = 0;
  return {
    cycle: async () => {
      const id = `${calls.questionId.slice(0, 8)}${(next++).toString(36).padStart(12, '0')}`;
      await holder.evalsha(createSha, ...(swap(calls.create, id) as [string]));
      const delivered = new Promise<void>((resolve) => waiting.set(id, resolve));
      const reply = (await other.evalsha(finishSha, ...(swap(calls.finish, id) as [string]))) as string[];
      if (reply[0] !== 'won') throw new Error(`scriptsFlow: the finish of ${id} answered ${reply[0]}`);
      await delivered;
      waiting.delete(id);
    },
    close: async () => {
      running = false;
      reader.disconnect();
      await loop;
      holder.disconnect();
      other.disconnect();
    },
  };
}
