// The two writes that move a question: creating it (record, indexes, timer jobs) and the one atomic
// transition that ends it (FINISH_LUA), with the job cleanup that follows a win.
import type { Queue } from 'bullmq';
import type { RedisClient } from '../redis/index.js';
import type { CreateOptions } from '../relay/relay.js';
import {
  isPersonReason,
  namedAnswerers,
  type EndReason,
  type FinishResult,
  type NewQuestion,
  type Outcome,
  type Question,
} from '../relay/types.js';
import { commandError, type StoreLogger } from '../redis/index.js';
import { newId } from './ids.js';
import type { Keys } from '../redis/index.js';
import { NotDueError } from './errors.js';
import { admit } from './pending.js';
import {
  DETACHED_HOLDER,
  createdFields,
  fieldsJson,
  parseQuestion,
  recordFromJson,
  stateFor,
} from './record.js';
import { addReminders, removeReminders } from './reminders.js';
import { shareSchema } from './schemas.js';
import { CREATE_SCRIPT, FINISH_SCRIPT, type StoreScripts } from './scripts.js';
import type { SlotDrops } from './slot-drops.js';
import { SLOT_RELEASE_LUA } from './slot-scripts.js';
import { SLOT_MS, newGen, slotOf, type Lowered, type SlotJobs } from './slots.js';

/**
 * Approximate cap on the ended stream: 100k ends (~10 MB). Readers that fall further behind (a consumer group
 * stopped for longer than 100k ends take) miss the oldest; the records themselves stay for the retention.
 */
export const ENDED_MAX_LEN = 100_000;

export interface Collaborators {
  holderId: string;
  /** How long finished records are kept, in seconds. */
  retentionSec: number;
  keys: Keys;
  logger: StoreLogger;
  /** Commands and the BullMQ queues. No offline queue: with Redis down, calls fail at once. */
  cmd: RedisClient & StoreScripts;
  /** The timeout queue, one job per deadline slot (store/slots.ts). */
  slots: SlotJobs;
  /** Drops of the slots finishes emptied, some deferred (store/slot-drops.ts). */
  drops: SlotDrops;
  reminders: Queue;
}

/** FINISH_LUA's reply; the records are JSON (recordFromJson). */
type FinishReply = ['missing'] | ['early', string] | ['lost', string] | ['won', string, string];

/** Who is finishing: a timeout job running on this replica for the question, or anyone else. */
export interface Finisher {
  reason: EndReason;
  endedBy?: string;
  /**
   * This replica's timeout worker is running the question's (slot) job and handed it this question. A
   * 'timed_out' end is then refused while the deadline is ahead on Redis TIME (NotDueError), and the slot's
   * marker and job are left to that job: it deletes the marker once its slot is empty, and BullMQ deletes the
   * job when it completes (removeOnComplete; a job held locked cannot be removed).
   */
  timeoutJobHere: boolean;
}

export async function writeQuestion(
  c: Collaborators,
  q: NewQuestion,
  opts: CreateOptions,
): Promise<Question> {
  try {
    if (opts.rateLimit) await admit(c.cmd, c.keys, q.server, opts.rateLimit);
    const remindAt = opts.remindAt ?? [];
    const { question, opened, lowered } = await writeRecord(c, q, remindAt.length);
    if (lowered !== undefined) await c.slots.moveEarlier(lowered);
    await addTimers(c, question, opened, remindAt);
    return question;
  } catch (err) {
    throw commandError('create', err);
  }
}

/**
 * The record and its index entries (CREATE_LUA), dated by Redis TIME in the same step; `opened` is the gen of
 * the slot marker this create set, when its deadline slot had no timeout job yet; `lowered` is set when its
 * deadline is before the slot job's wake time, which the script lowered (the job is to be moved earlier).
 */
async function writeRecord(
  c: Collaborators,
  q: NewQuestion,
  reminders: number,
): Promise<{ question: Question; opened: string | undefined; lowered: Lowered | undefined }> {
  const holder = q.client === undefined ? c.holderId : DETACHED_HOLDER;
  // createdAt and deadline are placeholders here: the script writes them from Redis TIME. Object.assign, not a
  // spread: V8 (Node 20) makes { ...q, id, ... } add each new key to the clone one slow step at a time, ~25 us
  // per create on the 2-core machine against ~0.5 us (issue #19 goal 2).
  const fresh = { id: newId(), state: 'pending' as const, holder, createdAt: 0, deadline: 0 };
  const question: Question = Object.assign({}, q, fresh);
  const { field, schema } = shareSchema(JSON.stringify(q.requestedSchema ?? null));
  const fields = createdFields(question);
  fields[field[0]] = field[1];
  if (reminders > 0) fields.reminders = String(reminders);
  const zsets = indexesOf(c.keys, question);
  const gen = newGen();
  const args = [q.timeoutMs, c.retentionSec * 1000, question.id];
  args.push(
    ...(schema ? [c.keys.schema(schema.ref), schema.json] : ['', '']),
    c.keys.slot(''),
    SLOT_MS,
    gen,
    fieldsJson(fields),
  );
  const keys = [c.keys.question(question.id), ...zsets];
  const reply = await CREATE_SCRIPT.run(c.cmd, keys.length, [...keys, ...args]);
  const [createdAt, state, slotGen] = reply as [string, number, string];
  const now = Number(createdAt);
  const created = { ...question, createdAt: now, deadline: now + q.timeoutMs };
  return {
    question: created,
    opened: state === 1 ? gen : undefined,
    lowered: state === 2 ? loweredSlot(c, created, slotGen, now) : undefined,
  };
}

/** The sorted sets a new question enters (the due index first), each scored by its deadline. */
function indexesOf(k: Keys, question: Question): string[] {
  // A round's question is not in its holder's index: the orphan sweep never ends it holder_lost, since any
  // replica records its end in the round (src/rounds/recorder.ts) and its timeout job ends it at the latest.
  const zsets = question.round === undefined ? [k.due, k.held(question.holder)] : [k.due];
  // No live replica would attach the card of an API question whose creator died before, or of a round's
  // question whose replica stopped or died with the post queued (another replica's outbox makes it): the
  // undelivered sweep finds them in this index, and drops each once it has its card or has ended.
  if (question.holder === DETACHED_HOLDER || question.round !== undefined) zsets.push(k.unattached);
  // Everyone named to answer it has it in their pending index (the App Home's list; pendingFor drops it once it
  // has ended); not a requester who may not answer (answerers without them): their Home would offer buttons
  // that can only be refused.
  for (const userId of new Set(namedAnswerers(question))) zsets.push(k.user(userId));
  return zsets;
}

/** The slot job of `created`'s deadline slot, whose wake time the create lowered to its deadline. */
function loweredSlot(c: Collaborators, created: Question, gen: string, now: number): Lowered {
  const slot = slotOf(created.deadline);
  const marker = c.keys.slot(String(slot));
  return { question: created.id, cmd: c.cmd, marker, slot, gen, deadline: created.deadline, now };
}

export async function finishQuestion(
  c: Collaborators,
  id: string,
  outcome: Outcome,
  finisher: Finisher,
): Promise<FinishResult> {
  const { cmd, keys: k } = c;
  let reply: FinishReply;
  const keep = c.drops.keeping();
  try {
    const keys = [k.question(id), k.ended, k.due, k.rescues, k.holders];
    const args = finishArgs(c, id, outcome, finisher, keep);
    reply = (await FINISH_SCRIPT.run(cmd, keys.length, [...keys, ...args])) as FinishReply;
  } catch (err) {
    throw commandError('finish', err);
  }
  if (reply[0] === 'missing') return { won: false, state: 'missing' };
  if (reply[0] === 'early') throw new NotDueError(id, Number(reply[1]));
  const hash = recordFromJson(reply[1]);
  const question = parseQuestion(hash);
  if (question === undefined) return { won: false, state: 'missing' };
  if (reply[0] === 'lost') return { won: false, state: question.state, question };
  if (reply[2] !== '') c.drops.emptied(slotOf(question.deadline), reply[2], keep);
  await removeReminderJobs(c, id, Number(hash.reminders ?? 0));
  await removeFromInboxes(c, question);
  return { won: true, question };
}

/** FINISH_LUA's arguments (see its header) for this finish. */
function finishArgs(
  c: Collaborators,
  id: string,
  outcome: Outcome,
  { reason, endedBy, timeoutJobHere }: Finisher,
  keep: boolean,
): (string | number)[] {
  const k = c.keys;
  return [
    stateFor(outcome),
    JSON.stringify(outcome),
    reason,
    c.retentionSec,
    // An inbox entry unread for the retention goes (the record it names has expired by then), never a younger
    // one: a length cap cut what a holder behind a burst of ends had yet to read, and its waiting request then
    // got the answer only at the question's deadline. A holder that never reads keeps at most its ends of the
    // last retention, and one that is gone, nothing past its stream's expiry.
    c.retentionSec * 1000,
    id,
    endedBy ?? '',
    DETACHED_HOLDER,
    ENDED_MAX_LEN,
    // The script names the holder's and person's keys from the record (see FINISH_LUA).
    k.inbox(''),
    k.held(''),
    k.user(''),
    k.schema(''),
    timeoutJobHere && reason === 'timed_out' ? '1' : '0',
    k.slot(''),
    SLOT_MS,
    keep ? '1' : '0',
    newId(),
    k.lease(''),
    // A person's act on a question whose holder died ends it holder_lost instead: the answer could reach nobody.
    isPersonReason(reason) ? '1' : '0',
  ];
}

/**
 * The other answerers' inbox entries go after the transition (the script removed its person's): cleanup
 * only, since pendingFor skips questions that ended anyway.
 */
async function removeFromInboxes(c: Collaborators, question: Question): Promise<void> {
  const others = namedAnswerers(question).filter((userId) => userId !== question.userId);
  if (others.length === 0) return;
  const pipeline = c.cmd.pipeline();
  for (const userId of others) pipeline.zrem(c.keys.user(userId), question.id);
  await pipeline.exec();
}

/** Redis TIME in epoch ms, so every replica shares one clock for deadlines. */
export async function redisNow(cmd: RedisClient): Promise<number> {
  const [sec, micro] = await cmd.time();
  return Number(sec) * 1000 + Math.floor(Number(micro) / 1000);
}

/**
 * Without its timeout a question could stay pending forever, so a failed add of the slot job this create
 * opened undoes the record, its index entries and the slot's marker (while it still names this gen, so a later
 * create into the slot opens a job again). A failed reminder add only costs the reminder.
 */
async function addTimers(
  c: Collaborators,
  question: Question,
  opened: string | undefined,
  remindAt: number[],
): Promise<void> {
  const { keys: k, slots, reminders, logger } = c;
  try {
    if (opened !== undefined) await slots.add(question, opened);
  } catch (err) {
    const marker = k.slot(String(slotOf(question.deadline)));
    const undo = undoCreate(c, question).eval(SLOT_RELEASE_LUA, 1, marker, opened ?? '');
    const undone = await undo.exec().then(
      () => true,
      () => false,
    );
    // The marker still names the job, and creates joining its slot count on it: so it is added after all.
    if (!undone && opened !== undefined) {
      slots.addLater(question, opened, async () => void (await undoCreate(c, question).exec()));
    }
    throw err;
  }
  if (remindAt.length === 0) return;
  await addReminders(reminders, question, remindAt, c.retentionSec).catch((err: unknown) => {
    logger.warn({ err, id: question.id }, 'could not add the reminder jobs; no reminders for this question');
  });
}

/**
 * Deletes a create's record and every index entry its script wrote (writeQuestion): the other answerers' and
 * the unattached one have no expiry of their own, and would keep the id until someone read them.
 */
function undoCreate(c: Collaborators, question: Question): ReturnType<RedisClient['multi']> {
  const { id, holder, userId } = question;
  const { cmd, keys: k } = c;
  const undo = cmd
    .multi()
    .del(k.question(id))
    .zrem(k.held(holder), id)
    .zrem(k.due, id)
    .zrem(k.unattached, id);
  for (const user of new Set([userId, ...namedAnswerers(question)])) undo.zrem(k.user(user), id);
  return undo;
}

/** Cleanup only: a surviving reminder finds the question finished and is skipped. */
async function removeReminderJobs(c: Collaborators, id: string, reminderCount: number): Promise<void> {
  if (reminderCount === 0) return;
  try {
    await removeReminders(c.reminders, id, reminderCount);
  } catch (err) {
    c.logger.warn({ err, id }, 'could not remove reminder jobs; they will find the question finished');
  }
}
