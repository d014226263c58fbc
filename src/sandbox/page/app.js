// The sandbox page: renders the Block Kit JSON the bot sent (from /api/state) and sends every click,
// submission, close and slash command to /api/*, which forwards it to the bot as a signed Slack request.
// Plain browser JavaScript, no dependencies and no network beyond this server.

import { $, h } from './dom.js';
import { mrkdwn, plainText, setNameResolver } from './mrkdwn.js';
import { blocks } from './blocks.js';

let info = { people: [], servers: [], suggestions: [] };
let me = '';
let version = -1;
let loop = 0;
let last = { timeline: '', home: '', modalKey: '', errors: '' };
let current = null;

// ---------- API
async function post(path, body) {
  const res = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: me, ...body }),
  });
  const json = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(json.message || `HTTP ${res.status}`);
  return json;
}

function note(text) {
  $('composer-note').textContent = text;
}

// ---------- inspector
function inspect(title, json, issues) {
  $('inspector-title').textContent = title;
  $('inspector-json').textContent = JSON.stringify(json, null, 2);
  const verdict = $('inspector-verdict');
  verdict.replaceChildren();
  verdict.className = `verdict ${issues.length ? 'bad' : 'ok'}`;
  if (issues.length === 0) verdict.append('✓ Slack accepts it: the limit checker found no issues.');
  else
    verdict.append(
      `✗ ${issues.length} issue(s):`,
      h(
        'ul',
        {},
        issues.map((i) => h('li', {}, i)),
      ),
    );
  $('inspector').showModal();
}

const inspectButton = (title, json, issues) =>
  h(
    'button',
    {
      type: 'button',
      class: `inspect${issues.length ? ' bad' : ''}`,
      title: 'View JSON',
      onclick: () => inspect(title, json, issues),
    },
    issues.length ? `{ } JSON ✗${issues.length}` : '{ } JSON',
  );

// ---------- timeline
const botName = 'elicit-relay';
function timeOf(ts) {
  const secs = Number(String(ts).split('.')[0]);
  return Number.isFinite(secs) && secs > 0 ? new Date(secs * 1000).toLocaleTimeString() : '';
}

function messageNode(item) {
  const ctx =
    item.kind === 'message'
      ? {
          onButton: (el) => act('/api/click', { channel: item.channel, ts: item.ts, actionId: el.action_id }),
        }
      : {};
  const content = item.blocks?.length ? blocks(item.blocks, ctx) : [mrkdwn(item.text ?? '')];
  const json =
    item.kind === 'message'
      ? { ts: item.ts, channel: item.channel, text: item.text, blocks: item.blocks }
      : { text: item.text, blocks: item.blocks };
  return h(
    'div',
    { class: `msg ${item.kind}`, 'data-ts': item.ts ?? '' },
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
      ),
      content,
    ),
    inspectButton(item.kind === 'message' ? `Message ${item.ts}` : 'Ephemeral message', json, item.issues),
  );
}

function renderTimeline(state) {
  const key = JSON.stringify(state.timeline);
  if (key === last.timeline) return;
  last.timeline = key;
  const box = $('timeline');
  const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
  box.replaceChildren(
    ...(state.timeline.length
      ? state.timeline.map(messageNode)
      : [
          h('div', { class: 'empty' }, 'No messages yet. Try a command below, e.g. /mcp run forms basics {}'),
        ]),
  );
  if (atBottom || state.timeline.length) box.scrollTop = box.scrollHeight;
}

function renderHome(state) {
  const key = JSON.stringify(state.home ?? null);
  if (key === last.home) return;
  last.home = key;
  const home = $('home');
  if (!state.home)
    return home.replaceChildren(
      h('div', { class: 'empty' }, 'The bot has not published an App Home for you.'),
    );
  home.replaceChildren(
    inspectButton('App Home', state.home.view, state.home.issues),
    ...blocks(state.home.view.blocks, { inputs: new Map() }),
  );
}

// ---------- modal (only the top of the stack shows, as in Slack)
function renderModal(state) {
  const layer = $('modal-layer');
  const top = state.views[state.views.length - 1];
  if (!top) {
    last.modalKey = '';
    current = null;
    layer.hidden = true;
    return layer.replaceChildren();
  }
  const key = `${top.id}|${top.hash}`;
  if (key !== last.modalKey) {
    last.modalKey = key;
    last.errors = '';
    buildModal(top, layer);
  }
  const errors = JSON.stringify(top.errors);
  if (errors !== last.errors) {
    last.errors = errors;
    for (const node of layer.querySelectorAll('[data-error-for]')) {
      const message = top.errors[node.dataset.errorFor] ?? '';
      node.textContent = message;
      node.closest('.input-block').classList.toggle('has-error', message !== '');
    }
  }
}

function buildModal(top, layer) {
  const view = top.view;
  const inputs = new Map();
  const banner = h('div', { class: 'banner', hidden: true });
  current = { id: top.id, inputs, banner };
  const onButton = (el, b) =>
    act('/api/view-action', {
      viewId: top.id,
      actionId: el.action_id,
      blockId: b.block_id,
      value: el.value,
      label: plainText(el.text),
    });
  const close = () => act('/api/close', { viewId: top.id });
  const submit = (event) => {
    event.preventDefault();
    const values = {};
    for (const [blockId, read] of inputs) {
      const v = read();
      if (v !== undefined) values[blockId] = v;
    }
    banner.hidden = true;
    post('/api/submit', { viewId: top.id, values }).catch((e) => {
      banner.textContent = e.message;
      banner.hidden = false;
    });
  };
  const form = h(
    'form',
    { class: 'modal', novalidate: true, onsubmit: submit, 'data-view-id': top.id },
    h(
      'div',
      { class: 'modal-head' },
      h('div', { class: 'title' }, plainText(view.title)),
      inspectButton(`Modal ${top.id}`, view, top.issues),
      h('button', { type: 'button', class: 'x', 'aria-label': 'Close', onclick: close }, '×'),
    ),
    h('div', { class: 'modal-body' }, banner, blocks(view.blocks, { inputs, onButton })),
    h(
      'div',
      { class: 'modal-foot' },
      h('button', { type: 'button', class: 'btn', onclick: close }, plainText(view.close) || 'Cancel'),
      view.submit ? h('button', { type: 'submit', class: 'btn primary' }, plainText(view.submit)) : null,
    ),
  );
  layer.replaceChildren(form);
  layer.hidden = false;
}

function act(path, body) {
  post(path, body).catch((e) => {
    if (current?.banner && path !== '/api/click') {
      current.banner.textContent = e.message;
      current.banner.hidden = false;
    } else note(e.message);
  });
}

// ---------- state loop (long-poll: the server answers as soon as something changed)
function render(state) {
  // A view the page cannot draw must not stop the page from following the bot.
  for (const part of [renderTimeline, renderHome, renderModal]) {
    try {
      part(state);
    } catch (error) {
      console.error(error);
      note(`The page could not draw part of this (see the console): ${error.message}`);
    }
  }
}

async function follow(id) {
  while (id === loop) {
    let state;
    try {
      const res = await fetch(`/api/state?user=${encodeURIComponent(me)}&after=${version}`);
      state = await res.json();
    } catch {
      // The sandbox stopped or restarted: try again shortly.
      await new Promise((r) => setTimeout(r, 1000));
      continue;
    }
    if (id !== loop) return;
    version = state.version;
    render(state);
  }
}

function switchTo(personId) {
  me = personId;
  localStorage.setItem('sandbox-person', me);
  version = -1;
  last = { timeline: '', home: '', modalKey: '', errors: '' };
  loop += 1;
  void follow(loop);
}

function showTab(tab) {
  $('timeline').hidden = tab !== 'messages';
  $('composer').hidden = tab !== 'messages';
  $('home').hidden = tab !== 'home';
  $('tab-messages').classList.toggle('active', tab === 'messages');
  $('tab-home').classList.toggle('active', tab === 'home');
}

async function main() {
  info = await (await fetch('/api/info')).json();
  setNameResolver((id) => info.people.find((p) => p.id === id)?.name ?? id);
  const picker = $('person');
  picker.replaceChildren(
    ...info.people.map((p) =>
      h('option', { value: p.id }, `${p.realName ?? p.name} (${p.locale ?? 'en-US'})`),
    ),
  );
  const saved = localStorage.getItem('sandbox-person');
  picker.value = info.people.some((p) => p.id === saved) ? saved : info.people[0].id;
  picker.addEventListener('change', () => switchTo(picker.value));
  $('servers').replaceChildren(...info.servers.map((s) => h('li', {}, s)));
  $('suggestions').replaceChildren(
    ...info.suggestions.map((s) =>
      h(
        'button',
        {
          type: 'button',
          class: 'chip',
          onclick: () => {
            $('message').value = s;
            $('message').focus();
          },
        },
        s,
      ),
    ),
  );
  $('tab-messages').addEventListener('click', () => showTab('messages'));
  $('tab-home').addEventListener('click', () => showTab('home'));
  $('inspector-close').addEventListener('click', () => $('inspector').close());
  $('composer').addEventListener('submit', (event) => {
    event.preventDefault();
    const text = $('message').value.trim();
    if (!text) return;
    if (!text.startsWith('/')) return note('Only slash commands reach the bot here, e.g. /mcp help');
    note('');
    $('message').value = '';
    post('/api/command', { text }).catch((e) => note(e.message));
  });
  switchTo(picker.value);
}

void main();
