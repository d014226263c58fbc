// The Cancel button of a person's run's "working…" message (results.ts progressMessage): which run it stops and
// whose run that is, in the button's value, read back by the listener on whichever replica gets the click.
import type { Button, KnownBlock } from '@slack/types';
import { BUTTON_TEXT_MAX } from './slack-limits.js';
import { plain } from './text.js';

/** The Cancel button of a person's run's "working…" message (value: the run, RunCancelTarget as JSON). */
export const CANCEL_RUN_ACTION = 'mcp_cancel_run';

/** The run a Cancel button stops, kept in the button's value. */
export interface RunCancelTarget {
  /** The run's id, random per run: the name any replica marks it cancelled by (src/slack/run-cancels.ts). */
  run: string;
  /** The person whose run it is: only they may cancel it, as the message may sit in a channel's thread. */
  owner: string;
}

/** The actions block of a run's Cancel button, labelled `label`. */
export function cancelBlock(target: RunCancelTarget, label: string): KnownBlock {
  const cancel: Button = {
    type: 'button',
    action_id: CANCEL_RUN_ACTION,
    text: plain(label, BUTTON_TEXT_MAX),
    // A run id (22 characters) and a user id: far below BUTTON_VALUE_MAX.
    value: JSON.stringify({ r: target.run, u: target.owner }),
    style: 'danger',
  };
  return { type: 'actions', block_id: CANCEL_RUN_ACTION, elements: [cancel] };
}

/** The Cancel button's run, or undefined when the value is not one. */
export function runCancelTargetOf(value: string | undefined): RunCancelTarget | undefined {
  try {
    const data = JSON.parse(value ?? '') as { r?: unknown; u?: unknown };
    if (typeof data.r !== 'string' || data.r === '' || typeof data.u !== 'string') return undefined;
    return { run: data.r, owner: data.u };
  } catch {
    return undefined;
  }
}
