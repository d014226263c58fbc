// Every Slack request reaches its handler through ONE global Bolt middleware that looks the handler up: view
// submissions and closes by callback_id, block actions by action_id, commands by name, events by type, options
// requests by type. Bolt runs every registered listener's own middleware chain on every request (a copied
// array, a kind check and a constraint check, each call spreading the request's arguments into a new object):
// with one listener per kind that was six chains per request, five of them for nothing, a measurable share of
// the bot's CPU at 200 view submissions per second (issue #19 goal 6). Interaction ids nobody takes are acked at
// once: without it Bolt waits its unhandledRequestTimeoutMillis (3 s) and answers 404, which Slack shows the
// person as an error. Requests of other kinds go on down Bolt's chain (no listener: as before).
import type {
  AllMiddlewareArgs,
  AnyMiddlewareArgs,
  App,
  BlockButtonAction,
  Middleware,
  SlackActionMiddlewareArgs,
  SlackCommandMiddlewareArgs,
  SlackEventMiddlewareArgs,
  SlackOptionsMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewClosedAction,
  ViewSubmitAction,
} from '@slack/bolt';
import { listenerClient } from '../workspace-client.js';

type Handler<Args> = (args: Args & AllMiddlewareArgs) => Promise<void>;
export type SubmitHandler = Handler<SlackViewMiddlewareArgs<ViewSubmitAction>>;
export type CloseHandler = Handler<SlackViewMiddlewareArgs<ViewClosedAction>>;
export type ButtonHandler = Handler<SlackActionMiddlewareArgs<BlockButtonAction>>;
export type CommandHandler = Handler<SlackCommandMiddlewareArgs>;
/** The Events API events the bot subscribes to (manifest.yml's bot_events). */
export type RoutedEvent =
  'app_home_opened' | 'app_uninstalled' | 'tokens_revoked' | 'team_access_granted' | 'team_access_revoked';
export type EventHandler<T extends RoutedEvent> = Handler<SlackEventMiddlewareArgs<T>>;
export type HomeOpenedHandler = EventHandler<'app_home_opened'>;
/** An event type with its handler: `routes.event(type, handler)`'s arguments. */
type EventRoute = { [T in RoutedEvent]: [type: T, handler: EventHandler<T>] }[RoutedEvent];
export type SuggestionHandler = Handler<SlackOptionsMiddlewareArgs<'block_suggestion'>>;

type Args = AnyMiddlewareArgs & AllMiddlewareArgs;

/** The handlers of every kind of request, by the id each kind is routed by. */
export class InteractionRoutes {
  private readonly submissions = new Map<string, SubmitHandler>();
  private readonly closes = new Map<string, CloseHandler>();
  private readonly actions = new Map<string, ButtonHandler>();
  /** Families of action ids (numbered link buttons): checked in order after the exact ids. */
  private readonly actionFamilies: { pattern: RegExp; handler: ButtonHandler }[] = [];
  private readonly commands = new Map<string, CommandHandler>();
  /** Events API handlers by event type. */
  private readonly events: { [T in RoutedEvent]?: EventHandler<T> } = {};
  private suggestion: SuggestionHandler | undefined;

  submission(callbackId: string, handler: SubmitHandler): void {
    this.submissions.set(callbackId, handler);
  }

  close(callbackId: string, handler: CloseHandler): void {
    this.closes.set(callbackId, handler);
  }

  /** A button by its exact action_id, or a family of them by a pattern. */
  action(actionId: string | RegExp, handler: ButtonHandler): void {
    if (typeof actionId === 'string') this.actions.set(actionId, handler);
    else this.actionFamilies.push({ pattern: actionId, handler });
  }

  /** A slash command by its name ('/mcp'). */
  command(name: string, handler: CommandHandler): void {
    this.commands.set(name, handler);
  }

  /** An Events API event by its type, one of those the bot subscribes to (manifest.yml). */
  event(type: 'app_home_opened', handler: EventHandler<'app_home_opened'>): void;
  event(type: 'app_uninstalled', handler: EventHandler<'app_uninstalled'>): void;
  event(type: 'tokens_revoked', handler: EventHandler<'tokens_revoked'>): void;
  event(type: 'team_access_granted', handler: EventHandler<'team_access_granted'>): void;
  event(type: 'team_access_revoked', handler: EventHandler<'team_access_revoked'>): void;
  event(...route: EventRoute): void {
    if (route[0] === 'app_home_opened') this.events.app_home_opened = route[1];
    else if (route[0] === 'app_uninstalled') this.events.app_uninstalled = route[1];
    else if (route[0] === 'team_access_granted') this.events.team_access_granted = route[1];
    else if (route[0] === 'team_access_revoked') this.events.team_access_revoked = route[1];
    else this.events.tokens_revoked = route[1];
  }

  /** Options requests of external selects (block_suggestion). */
  blockSuggestion(handler: SuggestionHandler): void {
    this.suggestion = handler;
  }

  /** Registers the dispatching middleware on `app`, after its other global middleware; call once. */
  mount(app: App): void {
    // Each handler gets its workspace's client (workspace-client.ts), not Bolt's.
    const dispatch: Middleware<AnyMiddlewareArgs> = (args) =>
      this.dispatch({ ...args, client: listenerClient(args) });
    app.use(dispatch);
  }

  /** The request's handler, as Bolt's listener constraints matched it (kind, then id or type). */
  private dispatch(args: Args): Promise<void> {
    const type = (args.body as { type?: unknown }).type;
    if ('view' in args && type === 'view_submission') {
      const submit = args as SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;
      return (this.submissions.get(submit.view.callback_id) ?? ackAtOnce)(submit);
    }
    if ('view' in args && type === 'view_closed') {
      const closed = args as SlackViewMiddlewareArgs<ViewClosedAction> & AllMiddlewareArgs;
      return (this.closes.get(closed.view.callback_id) ?? ackAtOnce)(closed);
    }
    if ('action' in args && hasActionId(args.action)) {
      // Bolt's types take the payload's kind from the caller; every id routed here belongs to one of our buttons.
      const click = args as SlackActionMiddlewareArgs<BlockButtonAction> & AllMiddlewareArgs;
      return (this.actionHandler(click.action.action_id) ?? ackAtOnce)(click);
    }
    return this.dispatchOther(args, type);
  }

  private dispatchOther(args: Args, type: unknown): Promise<void> {
    if ('command' in args) {
      const handler = this.commands.get(args.command.command);
      if (handler) return handler(args);
    }
    if ('event' in args) {
      const handled = this.dispatchEvent(args);
      if (handled) return handled;
    }
    if ('options' in args && type === 'block_suggestion' && this.suggestion) {
      return this.suggestion(args as SlackOptionsMiddlewareArgs<'block_suggestion'> & AllMiddlewareArgs);
    }
    return args.next();
  }

  /** The event's handler run, or undefined when none takes its type. */
  private dispatchEvent(args: SlackEventMiddlewareArgs & AllMiddlewareArgs): Promise<void> | undefined {
    // Bolt's types take the event's type from the caller; each branch checked it.
    const {
      app_home_opened: homeOpened,
      app_uninstalled: uninstalled,
      tokens_revoked: revoked,
      team_access_granted: granted,
      team_access_revoked: refused,
    } = this.events;
    switch (args.event.type) {
      case 'app_home_opened':
        return homeOpened?.(args as SlackEventMiddlewareArgs<'app_home_opened'> & AllMiddlewareArgs);
      case 'app_uninstalled':
        return uninstalled?.(args as SlackEventMiddlewareArgs<'app_uninstalled'> & AllMiddlewareArgs);
      case 'tokens_revoked':
        return revoked?.(args as SlackEventMiddlewareArgs<'tokens_revoked'> & AllMiddlewareArgs);
      case 'team_access_granted':
        return granted?.(args as SlackEventMiddlewareArgs<'team_access_granted'> & AllMiddlewareArgs);
      case 'team_access_revoked':
        return refused?.(args as SlackEventMiddlewareArgs<'team_access_revoked'> & AllMiddlewareArgs);
      default:
        return undefined;
    }
  }

  private actionHandler(actionId: string): ButtonHandler | undefined {
    return (
      this.actions.get(actionId) ?? this.actionFamilies.find(({ pattern }) => pattern.test(actionId))?.handler
    );
  }
}

/** A block element's action (it has an action_id), as Bolt's action_id constraint required. */
function hasActionId(action: unknown): action is { action_id: string } {
  return (
    typeof action === 'object' &&
    action !== null &&
    typeof (action as { action_id?: unknown }).action_id === 'string'
  );
}

/** Acks with an empty 200: a view submission closes its view, a close or a click needs nothing more. */
export async function ackAtOnce({
  ack,
}: (SlackViewMiddlewareArgs | SlackActionMiddlewareArgs) & AllMiddlewareArgs): Promise<void> {
  await ack();
}
