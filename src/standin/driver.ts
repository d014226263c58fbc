// Plays Slack's side towards the bot: slash commands, interactivity payloads and Events API events in Slack's
// exact shapes, with trigger_ids and response_urls minted by the stand-in. The payloads are the same whether
// they travel as signed HTTP requests or as Socket Mode envelopes; the transport decides. What a person does in
// an open modal (suggest, submit, close) is played in view-acts.ts.
import type { Obj } from './blockkit-check.js';
import { StandinError } from './calls.js';
import { buttonAction, channelName, escapedAsSlack, eventCallback, findButton } from './payloads.js';
import type { SlackStandin } from './standin.js';
import {
  HttpTransport,
  type Delivery,
  type Outgoing,
  type SendOptions,
  type Transport,
} from './transports.js';
import {
  type Acting,
  type CloseInput,
  type SubmitInput,
  type SuggestInput,
  type ViewClickInput,
  clickInView,
  closeView,
  viewClick,
  submitView,
  suggest,
} from './view-acts.js';

export type { Delivery, Outgoing, SendOptions, Transport } from './transports.js';

/** A slash command as a person types it. */
export interface SlashCommandInput {
  userId: string;
  command: string;
  /** As typed: the request carries it escaped, as Slack sends it. */
  text: string;
  channelId?: string;
}

export interface DriverOptions {
  standin: SlackStandin;
  /** How requests reach the bot: HTTP (`eventsUrl` + `signingSecret`) or a Socket Mode connection. */
  transport?: Transport;
  /** The bot's `POST /slack/events` URL (HTTP mode, when no `transport` is given). */
  eventsUrl?: string;
  signingSecret?: string;
  /** Epoch ms for request timestamps and action_ts; default Date.now (Bolt checks against real time). */
  clock?: () => number;
  /** Default: the stand-in's team id. */
  teamId?: string;
  /**
   * The Enterprise Grid org (E…) whose org-wide installation serves `teamId`: payloads then carry it
   * (`enterprise_id`, `enterprise`, `authorizations[0]`) with `is_enterprise_install: true`, as Slack sends
   * them for an app deployed to the whole org. Default: a workspace install outside any org.
   */
  enterpriseId?: string;
  /** api_app_id in payloads; default: the stand-in's app id. */
  appId?: string;
}

/** The legacy verification token Slack still puts in payloads (Bolt ignores it). */
export const VERIFICATION_TOKEN = 'standin-verification-token';

export class SlackDriver {
  private readonly clock: () => number;

  private readonly transport: Transport;

  /** What the modal acts (view-acts.ts) need of this driver. */
  private readonly acting: Acting;

  constructor(private readonly opts: DriverOptions) {
    this.clock = opts.clock ?? Date.now;
    this.transport = opts.transport ?? httpTransport(opts, this.clock);
    this.acting = {
      standin: opts.standin,
      actor: (userId) => this.actor(userId),
      viewActor: (userId) => this.viewActor(userId),
      send: (out) => this.send(out),
    };
  }

  private appId(): string {
    return this.opts.appId ?? this.standin.identity.appId;
  }

  private get standin(): SlackStandin {
    return this.opts.standin;
  }

  private team(): { id: string; domain: string } {
    return { id: this.opts.teamId ?? this.standin.identity.teamId, domain: this.standin.identity.teamDomain };
  }

  /** Who acts in an interactivity payload, and through which installation (workspace or org-wide). */
  private actor(userId: string): Obj {
    const team = this.team();
    const { name } = this.standin.user(userId);
    const org = this.opts.enterpriseId;
    return {
      team: org === undefined ? team : { ...team, enterprise_id: org },
      user: { id: userId, username: name, name, team_id: team.id },
      api_app_id: this.appId(),
      token: VERIFICATION_TOKEN,
      enterprise: org === undefined ? null : { id: org, name: org },
      is_enterprise_install: org !== undefined,
    };
  }

  /** Who acts in a view_submission or view_closed: as actor(), with no team for an org-wide installation. */
  private viewActor(userId: string): Obj {
    const actor = this.actor(userId);
    return this.opts.enterpriseId === undefined ? actor : { ...actor, team: null };
  }

  /** A slash command as Slack posts it (plain form fields). */
  slashCommand(input: SlashCommandInput): Promise<Delivery> {
    return this.send(this.slashCommandRequest(input));
  }

  /** The request Slack sends for a slash command, with a fresh trigger_id (send it again to replay it). */
  slashCommandRequest(input: SlashCommandInput): Outgoing {
    const channelId = input.channelId ?? this.standin.dmChannelOf(input.userId);
    const team = this.team();
    return {
      form: {
        token: VERIFICATION_TOKEN,
        team_id: team.id,
        team_domain: team.domain,
        channel_id: channelId,
        channel_name: channelName(channelId),
        user_id: input.userId,
        user_name: this.standin.user(input.userId).name,
        command: input.command,
        text: escapedAsSlack(input.text),
        api_app_id: this.appId(),
        // A command's form carries the org as strings, as Slack posts it.
        ...(this.opts.enterpriseId === undefined
          ? { is_enterprise_install: 'false' }
          : { enterprise_id: this.opts.enterpriseId, is_enterprise_install: 'true' }),
        response_url: this.standin.responseUrl({ channel: channelId, userId: input.userId }),
        trigger_id: this.standin.issueTriggerId(input.userId),
      },
    };
  }

  /** Clicks a button of a posted message: a block_actions payload with a fresh trigger_id. */
  async clickButton(input: {
    userId: string;
    channel: string;
    ts: string;
    actionId: string;
  }): Promise<Delivery> {
    const posted = this.standin.message(input.channel, input.ts);
    const message = this.standin.messageObject(input.channel, input.ts);
    if (!posted || !message)
      throw new StandinError('message_not_found', `no message ${input.channel}/${input.ts}`);
    const found = findButton(posted.blocks, input.actionId);
    if (!found)
      throw new StandinError('button_not_found', `message ${posted.ts} has no button ${input.actionId}`);
    const action = buttonAction(found, input.actionId, this.clock());
    const channel = posted.channel;
    return this.send({
      payload: {
        type: 'block_actions',
        ...this.actor(input.userId),
        container: { type: 'message', message_ts: posted.ts, channel_id: channel, is_ephemeral: false },
        trigger_id: this.standin.issueTriggerId(input.userId),
        channel: { id: channel, name: channelName(channel) },
        message,
        state: { values: {} },
        response_url: this.standin.responseUrl({ channel, userId: input.userId, messageTs: posted.ts }),
        actions: [action],
      },
    });
  }

  /**
   * The person opens the bot's Home tab: the Events API `app_home_opened` event, carrying the Home view when one
   * was published before (as Slack's does). Send the same `eventId` again with `opts.retry` to play Slack's
   * redelivery of an event it got no timely 200 for.
   */
  openHome(userId: string, input: { eventId?: string } = {}, opts: SendOptions = {}): Promise<Delivery> {
    const home = this.standin.homeOf(userId, this.team().id);
    const now = this.clock();
    const event = {
      type: 'app_home_opened',
      user: userId,
      channel: this.standin.dmChannelOf(userId),
      tab: 'home',
      event_ts: (now / 1000).toFixed(6),
      ...(home ? { view: home } : {}),
    };
    const envelope = eventCallback({
      identity: this.standin.identity,
      appId: this.appId(),
      teamId: this.team().id,
      ...(this.opts.enterpriseId === undefined ? {} : { enterpriseId: this.opts.enterpriseId }),
      token: VERIFICATION_TOKEN,
      nowMs: now,
      event,
      ...input,
    });
    return this.send({ json: envelope }, opts);
  }

  /**
   * An org admin adds the app to workspaces of the driver's org (`granted`) or removes it from them (`revoked`):
   * the stand-in's grants change (auth.teams.list), and the org-wide app gets team_access_granted or
   * team_access_revoked naming them (`team_ids`) through the org's installation. `eventId`: a redelivery's.
   */
  teamAccess(
    change: 'granted' | 'revoked',
    teamIds: string[],
    input: { eventId?: string } = {},
  ): Promise<Delivery> {
    const org = this.opts.enterpriseId;
    if (org === undefined)
      throw new StandinError('not_org', 'team access changes only for an org (enterpriseId)');
    if (change === 'granted') this.standin.grants.grant(org, teamIds);
    else this.standin.grants.revoke(org, teamIds);
    const now = this.clock();
    const event = { type: `team_access_${change}`, team_ids: teamIds, event_ts: (now / 1000).toFixed(6) };
    const envelope = eventCallback({
      identity: this.standin.identity,
      appId: this.appId(),
      teamId: this.team().id,
      enterpriseId: org,
      token: VERIFICATION_TOKEN,
      nowMs: now,
      event,
      ...input,
    });
    return this.send({ json: envelope });
  }

  /**
   * Clicks a button on the person's published Home tab (the one with `value`, when several share the action).
   * Like any click in a view, the payload carries the view and a trigger_id, and no response_url.
   */
  async clickHomeButton(input: { userId: string; actionId: string; value?: string }): Promise<Delivery> {
    const home = this.standin.homeOf(input.userId, this.team().id);
    if (!home) throw new StandinError('home_not_published', `no Home tab published for ${input.userId}`);
    const found = findButton(home.blocks, input.actionId, input.value);
    if (!found)
      throw new StandinError(
        'button_not_found',
        `the Home tab has no button ${input.actionId} ${input.value ?? ''}`,
      );
    const action = buttonAction(found, input.actionId, this.clock());
    return this.send({ payload: viewClick(this.acting, input.userId, String(home.id), home, action) });
  }

  /**
   * The person types `value` into an external select of an open view: Slack's block_suggestion. The options
   * the app answers are checked and kept on the view: a submission may pick only those.
   */
  suggest(input: SuggestInput): Promise<Obj[]> {
    return suggest(this.acting, input);
  }

  /** Clicks a button in an open modal (Back on a paged form), with what its inputs hold. */
  clickViewButton(input: ViewClickInput): Promise<Delivery> {
    return clickInView({ ...this.acting, nowMs: () => this.clock() }, input);
  }

  /** Submits an open modal with the given answers; the stand-in then applies the bot's response_action. */
  submitView(input: SubmitInput): Promise<Delivery> {
    return submitView(this.acting, input);
  }

  /**
   * The person leaves the modal on top of their stack. By default only that view closes (its close button;
   * on a pushed view it goes back to the one under it); `clearStack` closes the whole stack (the X), and
   * then `is_cleared` is true when more than one view was open. Slack notifies only a view with
   * notify_on_close, and the payload carries the view the person was looking at.
   */
  closeView(input: CloseInput): Promise<Delivery> {
    return closeView(this.acting, input);
  }

  /** Low level: delivers exactly this request (over HTTP: signed, or forged/stale/tampered per `opts`). */
  send(out: Outgoing, opts: SendOptions = {}): Promise<Delivery> {
    return this.transport.deliver(out, opts);
  }
}

function httpTransport(opts: DriverOptions, clock: () => number): Transport {
  if (!opts.eventsUrl || opts.signingSecret === undefined) {
    throw new StandinError('no_transport', 'the driver needs a transport, or eventsUrl and signingSecret');
  }
  return new HttpTransport({ eventsUrl: opts.eventsUrl, signingSecret: opts.signingSecret, clock });
}
