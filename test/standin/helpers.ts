// Calls the stand-in over real HTTP the way WebClient does: POST form-encoded, objects as JSON strings.
import type { SlackStandin } from '../../src/standin/index.js';

export const BOT_TOKEN = 'xoxb-standin-test';

export interface ApiReply {
  status: number;
  retryAfter: string | null;
  body: Record<string, unknown>;
}

export interface CallOptions {
  /** Bearer token; null sends none. Default BOT_TOKEN. */
  token?: string | null;
  /** Send application/json instead of a form. */
  json?: boolean;
}

function form(args: Record<string, unknown>): string {
  const fields = Object.entries(args).map(([k, v]): [string, string] => [
    k,
    typeof v === 'string' ? v : JSON.stringify(v),
  ]);
  return new URLSearchParams(fields).toString();
}

export async function callApi(
  standin: SlackStandin,
  method: string,
  args: Record<string, unknown> = {},
  opts: CallOptions = {},
): Promise<ApiReply> {
  const token = opts.token === undefined ? BOT_TOKEN : opts.token;
  const headers: Record<string, string> = {
    'content-type': opts.json ? 'application/json; charset=utf-8' : 'application/x-www-form-urlencoded',
  };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${standin.apiUrl}${method}`, {
    method: 'POST',
    headers,
    body: opts.json ? JSON.stringify(args) : form(args),
  });
  return {
    status: res.status,
    retryAfter: res.headers.get('retry-after'),
    body: (await res.json()) as Record<string, unknown>,
  };
}

export const plain = (text: string): { type: 'plain_text'; text: string } => ({ type: 'plain_text', text });

export const option = (
  text: string,
  value = text,
): { text: { type: 'plain_text'; text: string }; value: string } => ({
  text: plain(text),
  value,
});

/** A small valid modal with one text input. */
export const modal = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  type: 'modal',
  callback_id: 'form',
  title: plain('Form'),
  submit: plain('Send'),
  blocks: [
    {
      type: 'input',
      block_id: 'name',
      label: plain('Name'),
      element: { type: 'plain_text_input', action_id: 'v' },
    },
  ],
  ...overrides,
});

/** A message with a Respond and a Decline button. */
export const cardBlocks = (): unknown[] => [
  { type: 'section', block_id: 'msg', text: { type: 'mrkdwn', text: '*srv* asks: your name?' } },
  {
    type: 'actions',
    block_id: 'act',
    elements: [
      { type: 'button', action_id: 'respond', text: plain('Respond'), value: 'q1', style: 'primary' },
      { type: 'button', action_id: 'decline', text: plain('Decline'), value: 'q1' },
    ],
  },
];
