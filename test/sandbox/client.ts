// A small client of the sandbox's JSON API, as the page uses it: long-poll the state, post actions.
import { resultText as textOfResult } from '../support/slack-text.js';
import type { PersonState, TimelineItem } from '../../src/sandbox/index.js';

export interface SandboxClient {
  post(
    path: string,
    body: Record<string, unknown>,
  ): Promise<{ status: number; json: Record<string, unknown> }>;
  /** Long-polls one person's state until `found` returns something (each poll waits for a change). */
  until<T>(user: string, found: (s: PersonState) => T | undefined, polls?: number): Promise<T>;
}

export function sandboxClient(url: string): SandboxClient {
  const versions = new Map<string, number>();
  return {
    post: async (path, body) => {
      const res = await fetch(new URL(path, url), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, json: (await res.json()) as Record<string, unknown> };
    },
    until: async (user, found, polls = 50) => {
      let last: PersonState | undefined;
      for (let i = 0; i < polls; i++) {
        // The first look answers at once; later ones wait on the server until something changed.
        const after = i === 0 ? -1 : (versions.get(user) ?? -1);
        const res = await fetch(new URL(`/api/state?user=${user}&after=${after}`, url));
        last = (await res.json()) as PersonState;
        versions.set(user, last.version);
        const hit = found(last);
        if (hit !== undefined) return hit;
      }
      throw new Error(`state of ${user} never matched; last: ${JSON.stringify(last)}`);
    },
  };
}

const hasButton = (item: TimelineItem, actionId: string): boolean =>
  JSON.stringify(item.blocks ?? []).includes(`"action_id":"${actionId}"`);

/** The newest request card (a message with the Respond button) in the person's DM. */
export const newestCard = (s: PersonState): TimelineItem | undefined =>
  s.timeline.findLast((m) => m.kind === 'message' && hasButton(m, 'elicit_respond'));

/** The text of a tool-result message after its headline, with Slack's escaping undone. */
export const resultText = (item: TimelineItem): string => textOfResult(item.blocks);

/**
 * Tool results posted after `afterTs`: messages in the DM itself that are not cards. A card's reminder is a reply
 * in the card's thread (threadTs), and may come before the result.
 */
export const resultAfter =
  (afterTs: string) =>
  (s: PersonState): TimelineItem | undefined =>
    s.timeline.find(
      (m) =>
        m.kind === 'message' &&
        m.threadTs === undefined &&
        m.ts !== undefined &&
        m.ts > afterTs &&
        !hasButton(m, 'elicit_respond'),
    );

/** The block_id of the open view's input labelled `label`. */
export function blockLabelled(s: PersonState, label: string): string {
  const blocks = (s.views.at(-1)?.view.blocks ?? []) as {
    type: string;
    block_id: string;
    label?: { text: string };
  }[];
  const block = blocks.find((b) => b.type === 'input' && b.label?.text === label);
  if (!block) throw new Error(`no input labelled ${label}`);
  return block.block_id;
}
