// views.open / push / update / publish: trigger_id exchange, validation, stack depth and hash checks.
import { type Obj, formatIssue } from './blockkit-check.js';
import { validateView } from './blockkit.js';
import { type ApiBody, type Handler, fail, nonEmpty } from './methods-chat.js';
import { type OpenedView, type Store, homeKey, withGeneratedIds } from './store.js';

/** Root view plus two pushes (views.push docs). */
export const MAX_STACK = 3;

/** Validates `args.view`; an error body, or the parsed view. */
function parseView(args: Obj): ApiBody | Obj {
  const issues = validateView(args.view);
  if (issues.length > 0) return fail('invalid_arguments', issues.map(formatIssue));
  return args.view as Obj;
}

const isError = (v: ApiBody | Obj): v is ApiBody => v.ok === false;

const newViewId = (store: Store): string => `V0${(0x10000000 + store.next()).toString(36).toUpperCase()}`;

/** Where a view sits: its id and the ids of the view under it and of its stack's root. */
interface Place {
  id: string;
  previous: unknown;
  root: unknown;
}

/** The view object as Slack returns it. */
export function materialize(store: Store, input: Obj, place: Place): Obj {
  const { teamId, appId, botId } = store.identity;
  return {
    id: place.id,
    team_id: teamId,
    type: input.type,
    blocks: withGeneratedIds(input.blocks),
    private_metadata: input.private_metadata ?? '',
    callback_id: input.callback_id ?? '',
    state: { values: {} },
    hash: store.hash(),
    title: input.title ?? null,
    clear_on_close: input.clear_on_close ?? false,
    notify_on_close: input.notify_on_close ?? false,
    close: input.close ?? null,
    submit: input.submit ?? null,
    previous_view_id: place.previous,
    root_view_id: place.root,
    app_id: appId,
    external_id: input.external_id ?? '',
    app_installed_team_id: teamId,
    bot_id: botId,
  };
}

function duplicateExternalId(store: Store, view: Obj, except?: string): boolean {
  const ext = nonEmpty(view.external_id);
  return (
    ext !== undefined && [...store.views.values()].some((v) => v.id !== except && v.view.external_id === ext)
  );
}

/** Puts a new view on top of `userId`'s stack (views.push, response_action push). */
export function pushView(store: Store, userId: string, input: Obj): ApiBody {
  const stack = store.stackOf(userId);
  if (stack.length >= MAX_STACK) return fail('push_limit_reached');
  const id = newViewId(store);
  const view = materialize(store, input, {
    id,
    previous: stack[stack.length - 1] ?? null,
    root: stack[0] ?? id,
  });
  store.views.set(id, { id, userId, view, open: true });
  stack.push(id);
  return { ok: true, view };
}

/** Replaces an open view's content in place (views.update, response_action update). */
export function replaceView(store: Store, stored: OpenedView, input: Obj): ApiBody {
  stored.view = materialize(store, input, {
    id: stored.id,
    previous: stored.view.previous_view_id,
    root: stored.view.root_view_id,
  });
  delete stored.errors;
  return { ok: true, view: stored.view };
}

/** Validates before exchanging, so a rejected view does not use up the person's trigger_id. */
function withTrigger(args: Obj, store: Store, then: (userId: string, view: Obj) => ApiBody): ApiBody {
  const view = parseView(args);
  if (isError(view)) return view;
  if (duplicateExternalId(store, view)) return fail('duplicate_external_id');
  const trigger = store.exchangeTrigger(args.trigger_id);
  if ('error' in trigger) return fail(trigger.error);
  return then(trigger.userId, view);
}

const open: Handler = (args, store) =>
  withTrigger(args, store, (userId, view) => {
    for (const id of [...store.stackOf(userId)]) store.closeView(id);
    return pushView(store, userId, view);
  });

const push: Handler = (args, store) =>
  withTrigger(args, store, (userId, view) => pushView(store, userId, view));

const update: Handler = (args, store) => {
  if (!nonEmpty(args.view_id) && !nonEmpty(args.external_id)) {
    return fail('invalid_arguments', ['[ERROR] must provide either view_id or external_id']);
  }
  const stored = store.findView(args.view_id, args.external_id);
  if (!stored?.open) return fail('not_found');
  if (nonEmpty(args.hash) && args.hash !== stored.view.hash) return fail('hash_conflict');
  const view = parseView(args);
  if (isError(view)) return view;
  if (duplicateExternalId(store, view, stored.id)) return fail('duplicate_external_id');
  return replaceView(store, stored, view);
};

const publish: Handler = (args, store) => {
  const userId = nonEmpty(args.user_id);
  if (!userId) return fail('invalid_arguments', ['[ERROR] missing required field: user_id']);
  const view = parseView(args);
  if (isError(view)) return view;
  if (view.type !== 'home')
    return fail('invalid_arguments', ['[ERROR] must be home [json-pointer:/view/type]']);
  // The calling workspace's Home of the person; a `hash` other than its current one: published since.
  const key = homeKey(store.identity.teamId, userId);
  const current = store.homes.get(key);
  if (current && nonEmpty(args.hash) && args.hash !== current.hash) return fail('hash_conflict');
  const id = typeof current?.id === 'string' ? current.id : newViewId(store);
  const home = materialize(store, view, { id, previous: null, root: id });
  store.homes.set(key, home);
  return { ok: true, view: home };
};

export const VIEW_METHODS: Record<string, Handler> = {
  'views.open': open,
  'views.push': push,
  'views.update': update,
  'views.publish': publish,
};
