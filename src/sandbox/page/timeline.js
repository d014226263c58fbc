// The conversation shown (messages with their cards and updates, the person's ephemeral notes) and App Home.
import { $, h } from './dom.js';
import { mrkdwn } from './mrkdwn.js';
import { blocks } from './blocks.js';
import { inspectButton } from './inspector.js';

const botName = 'elicit-relay';
let shown = { timeline: '', home: '' };

export function forgetTimeline() {
  shown = { timeline: '', home: '' };
}

function timeOf(ts) {
  const secs = Number(String(ts).split('.')[0]);
  return Number.isFinite(secs) && secs > 0 ? new Date(secs * 1000).toLocaleTimeString() : '';
}

function messageNode(item, act) {
  const ctx =
    item.kind === 'message'
      ? {
          onButton: (el) => act('/api/click', { channel: item.channel, ts: item.ts, actionId: el.action_id }),
        }
      : {};
  const content = item.blocks?.length ? blocks(item.blocks, ctx) : [mrkdwn(item.text ?? '')];
  const files = (item.files ?? []).map((file) =>
    h('figure', { class: 'file' }, h('figcaption', {}, file.title), h('pre', {}, file.content)),
  );
  const json =
    item.kind === 'message'
      ? { ts: item.ts, channel: item.channel, text: item.text, blocks: item.blocks }
      : { text: item.text, blocks: item.blocks };
  return h(
    'div',
    { class: `msg ${item.kind}`, 'data-ts': item.ts ?? '', role: 'article' },
    h('div', { class: 'avatar' }, 'ER'),
    h(
      'div',
      { class: 'msg-body' },
      h(
        'div',
        { class: 'msg-head' },
        h('b', {}, botName),
        h('span', { class: 'app-badge' }, 'APP'),
        timeOf(item.ts),
        item.updates ? ' (edited)' : '',
        // Slack shows a reply in its thread; the page keeps one timeline and says where the reply went.
        item.threadTs ? h('span', { class: 'thread-note' }, ' · replied in a thread') : '',
      ),
      content,
      files,
    ),
    inspectButton(item.kind === 'message' ? `Message ${item.ts}` : 'Ephemeral message', json, item.issues),
  );
}

export function renderTimeline(state, act) {
  const key = JSON.stringify([state.channel, state.timeline]);
  if (key === shown.timeline) return;
  shown.timeline = key;
  const box = $('timeline');
  box.replaceChildren(
    ...(state.timeline.length
      ? state.timeline.map((item) => messageNode(item, act))
      : [
          h('div', { class: 'empty' }, 'No messages yet. Try a command below, e.g. /mcp run forms basics {}'),
        ]),
  );
  box.scrollTop = box.scrollHeight;
}

export function renderHome(state, act) {
  const key = JSON.stringify(state.home ?? null);
  if (key === shown.home) return;
  shown.home = key;
  const home = $('home');
  if (!state.home)
    return home.replaceChildren(
      h('div', { class: 'empty' }, 'The bot has not published an App Home for you.'),
    );
  home.replaceChildren(
    inspectButton('App Home', state.home.view, state.home.issues),
    ...blocks(state.home.view.blocks, {
      inputs: new Map(),
      onButton: (el) => act('/api/home-click', { actionId: el.action_id, value: el.value }),
    }),
  );
}
