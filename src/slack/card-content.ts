// What a question's card says: the request card (form or URL), the ended card and the URL-completed card. The
// surface decides where cards go, in whose language (card-readers.ts), and sends them; this only builds their
// text and blocks.
import {
  answerLines,
  endedCard,
  parseFormSchema,
  requestCard,
  urlCard,
  urlCompletedCard,
  type CardAbout,
  type Locale,
  type SlackMessage,
} from '../../blocks/index.js';
import type { Clock } from '../clock.js';
import { isRoundLink } from '../relay/round-links.js';
import type { Question } from '../relay/types.js';
import type { Audience } from './audience.js';
import { answerersText } from './texts.js';

export class CardContent {
  constructor(
    /** Whether the server's policy shows answers on the ended card. */
    private readonly audience: Audience,
    /** When a card says a question ended. */
    private readonly clock: Pick<Clock, 'now'>,
  ) {}

  /**
   * The card that asks, in `locale`: the form's request card, or the URL card of a URL request. `watching`: the
   * form's card of someone who may not answer (card-readers.ts onlyWatches), without Respond or Decline.
   */
  request(question: Question, locale: Locale, watching = false): SlackMessage {
    const input = {
      locale,
      questionId: question.id,
      server: question.server,
      message: question.message,
      deadline: question.deadline,
      ...aboutOf(question),
    };
    return question.url
      ? urlCard({
          ...input,
          url: question.url.url,
          roundLink: isRoundLink(question.url.elicitationId),
          again: question.url.replaces !== undefined,
        })
      : requestCard({
          ...input,
          secretFields: secretLabels(question),
          ...(question.answerers ? { answerers: answerersText(question, input.locale) } : {}),
          ...(watching ? { watching } : {}),
        });
  }

  /** The ended card in `locale`; undefined while the question is pending. */
  ended(question: Question, locale: Locale, byUserId?: string): SlackMessage | undefined {
    if (question.state === 'pending') return undefined;
    const answer = this.answerOf(question, locale);
    return endedCard({
      locale,
      server: question.server,
      message: question.message,
      state: question.state,
      reason: question.reason ?? 'timed_out',
      mode: question.url ? 'url' : 'form',
      at: this.clock.now(),
      ...aboutOf(question),
      ...(answer ? { answer } : {}),
      ...(byUserId ? { byUserId } : {}),
    });
  }

  /** The card of a URL request whose link's step is done, in `locale`. */
  completed(question: Question, locale: Locale): SlackMessage {
    return urlCompletedCard({
      locale,
      server: question.server,
      message: question.message,
    });
  }

  /** The answer's lines for an answered form, 'hidden' when the server's policy hides content. */
  private answerOf(question: Question, locale: Locale): string[] | 'hidden' | undefined {
    if (question.outcome?.action !== 'accept' || question.url) return undefined;
    if (!this.audience.policyOf(question.server).showAnswers) return 'hidden';
    return answerLines(parseFormSchema(question.requestedSchema), question.outcome.content, locale);
  }
}

/** The server's identity and the requester, for the card's context line. */
function aboutOf(question: Question): CardAbout {
  return {
    requester: question.origin.userId,
    ...(question.serverInfo ? { serverInfo: question.serverInfo } : {}),
  };
}

/** Labels of the form's fields that look like secrets (the card warns before the form opens). */
function secretLabels(question: Question): string[] {
  return parseFormSchema(question.requestedSchema)
    .fields.filter((f) => f.secret === true)
    .map((f) => f.label);
}
