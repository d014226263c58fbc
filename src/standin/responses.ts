// response_url endpoints (slash commands, block_actions) and view_submission acks, applied to the stand-in's
// state the way Slack applies them.
import { type Obj, formatIssue, isObj } from './blockkit-check.js';
import { validateView } from './blockkit.js';
import { type ApiBody, checkContent, fail } from './methods-chat.js';
import { pushView, replaceView } from './methods-views.js';
import { type Store, withGeneratedIds } from './store.js';

/** Where a response_url posts: the conversation, the person who acted, and the message they acted on. */
export interface ResponseTarget {
  channel: string;
  userId: string;
  messageTs?: string;
}

/** A response_url accepts up to 5 responses (Slack's interactivity docs). */
const MAX_USES = 5;

export class ResponseUrls {
  private readonly targets = new Map<string, { target: ResponseTarget; uses: number }>();

  constructor(private readonly store: Store) {}

  /** Path (under the stand-in's origin) of a new response_url for `target`. */
  mint(target: ResponseTarget): string {
    const id = `${this.store.next()}-${this.store.hash().replace('.', '')}`;
    this.targets.set(id, { target, uses: 0 });
    return `/response/${id}`;
  }

  /** Applies one POST to a response_url; HTTP status plus Slack's JSON answer. */
  post(path: string, body: Obj): { status: number; body: ApiBody } {
    const entry = this.targets.get(path.slice('/response/'.length));
    if (!entry) return { status: 404, body: fail('expired_url') };
    if (entry.uses >= MAX_USES) return { status: 404, body: fail('used_url') };
    entry.uses += 1;
    const result = this.apply(entry.target, body);
    return { status: result.ok ? 200 : 400, body: result };
  }

  private apply(target: ResponseTarget, body: Obj): ApiBody {
    const original = target.messageTs ? this.store.message(target.channel, target.messageTs) : undefined;
    if (body.delete_original === true || body.delete_original === 'true') {
      if (!original) return fail('message_not_found');
      this.store.messages.delete(`${original.channel}|${original.ts}`);
      return { ok: true };
    }
    const replace = body.replace_original === true || body.replace_original === 'true';
    const bad = checkContent(body, !replace);
    if (bad) return bad;
    const text = typeof body.text === 'string' ? body.text : undefined;
    const blocks = Array.isArray(body.blocks) ? (withGeneratedIds(body.blocks) as unknown[]) : undefined;
    if (replace) {
      if (!original) return fail('message_not_found');
      if (text !== undefined) original.text = text;
      if (blocks !== undefined) original.blocks = blocks;
      original.updates += 1;
    } else if (body.response_type === 'in_channel') {
      this.store.putMessage({ channel: target.channel, ts: this.store.nextTs(), text, blocks, updates: 0 });
    } else {
      this.store.ephemerals.push({ channel: target.channel, userId: target.userId, text, blocks });
    }
    return { ok: true };
  }
}

function fieldErrors(store: Store, viewId: string, errors: unknown): ApiBody {
  const stored = store.views.get(viewId);
  if (!stored || !isObj(errors)) return fail('invalid_arguments', ['[ERROR] errors must be an object']);
  const inputs = new Set(
    (stored.view.blocks as Obj[]).filter((b) => b.type === 'input').map((b) => b.block_id),
  );
  const unknown = Object.keys(errors).filter((k) => !inputs.has(k));
  if (unknown.length > 0) {
    return fail(
      'invalid_arguments',
      unknown.map((k) => `[ERROR] no input block with block_id ${k}`),
    );
  }
  stored.errors = Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, String(v)]));
  return { ok: true };
}

function withView(ack: Obj, then: (view: Obj) => ApiBody): ApiBody {
  const issues = validateView(ack.view);
  return issues.length > 0 ? fail('invalid_arguments', issues.map(formatIssue)) : then(ack.view as Obj);
}

/** Applies the bot's HTTP answer to a view_submission as Slack does (empty body closes the view). */
export function applyViewAck(store: Store, viewId: string, ack: unknown): ApiBody {
  const stored = store.views.get(viewId);
  if (!stored?.open) return fail('not_found');
  if (ack === undefined) {
    store.closeView(viewId);
    return { ok: true };
  }
  if (!isObj(ack)) return fail('invalid_response_action');
  switch (ack.response_action) {
    case 'errors':
      return fieldErrors(store, viewId, ack.errors);
    case 'update':
      return withView(ack, (view) => replaceView(store, stored, view));
    case 'push':
      return withView(ack, (view) => pushView(store, stored.userId, view));
    case 'clear':
      for (const id of [...store.stackOf(stored.userId)]) store.closeView(id);
      return { ok: true };
    default:
      return fail('invalid_response_action');
  }
}
