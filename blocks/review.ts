// The review step before sending (MCP's "review and modify"): a read-only summary of the answers pushed over
// the form, with Send and Back. The answers never ride in the view: its private_metadata names the question
// (and the language it is drawn in) only, and Send relays the person's own draft as the bot stored it (src/answering).
import { VIEW_TITLE_MAX } from './slack-limits.js';
import type { ModalView } from '@slack/types';
import type { Content } from '../src/relay/types.js';
import { uiText, type Locale } from './i18n.js';
import { REVIEW_CALLBACK } from './ids.js';
import { viewMetadata } from './modal.js';
import type { FormSpec } from './spec.js';
import { answerLines, answerSections } from './summary.js';
import { escapeMrkdwn, mrkdwn, plain, section, truncate } from './text.js';

/** A yes/no field with such a name or title makes a form one that approves something (review: auto). */
const APPROVING = /confirm|approv|authori[sz]|确认|批准|授权/i;

/** Whether a form approves something: it has a yes/no field named or titled like confirm or approve. */
export function approvesSomething(spec: FormSpec): boolean {
  return spec.fields.some((f) => f.kind === 'boolean' && (APPROVING.test(f.name) || APPROVING.test(f.label)));
}

/** The review view of `content`; its private_metadata carries the question id and the view's language alone. */
export function reviewModal(
  spec: FormSpec,
  input: { questionId: string; server: string; content: Content; locale?: Locale },
): ModalView {
  const private_metadata = viewMetadata(input.questionId, input.locale);
  const t = uiText(input.locale);
  const lines = answerLines(spec, input.content, input.locale);
  return {
    type: 'modal',
    callback_id: REVIEW_CALLBACK,
    title: plain(t.reviewTitle, VIEW_TITLE_MAX),
    submit: plain(t.submit, VIEW_TITLE_MAX),
    close: plain(t.back, VIEW_TITLE_MAX),
    blocks: [
      { type: 'context', elements: [mrkdwn(t.from(`*${escapeMrkdwn(truncate(input.server, 200))}*`))] },
      { type: 'section', text: mrkdwn(t.reviewIntro) },
      ...(lines.length > 0 ? answerSections(lines) : [section(t.noAnswers)]),
    ],
    private_metadata,
    notify_on_close: true,
  };
}
