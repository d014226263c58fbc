// One Bolt listener per kind of interaction, which looks the handler up by id. Bolt hands every request to
// every registered listener, each running its own matching middleware (a copied chain, a kind check, a
// constraint check, several promises): with one listener per id (21 of them) that was work for 20 listeners
// that did not match, on every request (issue #19 goal 6: a measurable share of the bot's CPU at 200 view
// submissions per second). Ids no handler takes are acked at once: without it Bolt waits its
// unhandledRequestTimeoutMillis (3 s) and answers 404, which Slack shows the person as an error.
import type {
  AllMiddlewareArgs,
  App,
  BlockButtonAction,
  SlackActionMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewClosedAction,
  ViewSubmitAction,
} from '@slack/bolt';

type Handler<Args> = (args: Args & AllMiddlewareArgs) => Promise<void>;
export type SubmitHandler = Handler<SlackViewMiddlewareArgs<ViewSubmitAction>>;
export type CloseHandler = Handler<SlackViewMiddlewareArgs<ViewClosedAction>>;
export type ButtonHandler = Handler<SlackActionMiddlewareArgs<BlockButtonAction>>;

/** The handlers of view submissions and closes (by callback_id) and of block actions (by action_id). */
export class InteractionRoutes {
  private readonly submissions = new Map<string, SubmitHandler>();
  private readonly closes = new Map<string, CloseHandler>();
  private readonly actions = new Map<string, ButtonHandler>();
  /** Families of action ids (numbered link buttons): checked in order after the exact ids. */
  private readonly actionFamilies: { pattern: RegExp; handler: ButtonHandler }[] = [];

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

  /** Registers the three dispatching listeners on `app`; call once, after every route is added. */
  mount(app: App): void {
    app.view<ViewSubmitAction>({ type: 'view_submission' }, async (args) =>
      (this.submissions.get(args.view.callback_id) ?? ackAtOnce)(args),
    );
    app.view<ViewClosedAction>({ type: 'view_closed' }, async (args) =>
      (this.closes.get(args.view.callback_id) ?? ackAtOnce)(args),
    );
    // Any payload with an action_id, as each listener's action_id constraint matched before; Bolt's types
    // take the payload's kind from the caller, and every id routed here belongs to one of our buttons.
    app.action<BlockButtonAction>({ action_id: /^/ }, async (args) =>
      (this.actionHandler(args.action.action_id) ?? ackAtOnce)(args),
    );
  }

  private actionHandler(actionId: string): ButtonHandler | undefined {
    return (
      this.actions.get(actionId) ?? this.actionFamilies.find(({ pattern }) => pattern.test(actionId))?.handler
    );
  }
}

/** Acks with an empty 200: a view submission closes its view, a close or a click needs nothing more. */
export async function ackAtOnce({
  ack,
}: (SlackViewMiddlewareArgs | SlackActionMiddlewareArgs) & AllMiddlewareArgs): Promise<void> {
  await ack();
}
