// The sandbox page: renders the Block Kit JSON the bot sent (from /api/state) and sends every click,
// submission, close and slash command to /api/*, which forwards it to the bot as a signed Slack request.
// Plain browser JavaScript, no dependencies and no network beyond this server.

import { $, h } from './dom.js';
import { setViewer } from './dates.js';
import { setNameResolver } from './mrkdwn.js';
import { note, post, session } from './api.js';
import { forgetAutomations, renderAutomations } from './automations.js';
import { setUpInspector } from './inspector.js';
import { forgetModal, modalBanner, renderModal } from './modal.js';
import { forgetTimeline, renderHome, renderTimeline } from './timeline.js';
import { showTools } from './tools.js';

let info = { people: [], servers: [], suggestions: [] };
/** The conversation shown; '' = the person's own DM. */
let conversation = '';
let tab = 'messages';
let version = -1;
let loop = 0;
let shownSidebar = '';

function act(path, body) {
  post(path, body).catch((e) => {
    if (path === '/api/click' || !modalBanner(e.message)) note(e.message);
  });
}

const nameOf = (id) => info.people.find((p) => p.id === id)?.realName ?? id;

// ---------- sidebar: each person's DM with the bot, and channels the bot posted in
function renderConversations(state) {
  const key = JSON.stringify([state.conversations, state.channel, state.dm, tab]);
  if (key === shownSidebar) return;
  shownSidebar = key;
  $('conversations').replaceChildren(
    ...state.conversations.map((c) =>
      h(
        'button',
        {
          type: 'button',
          role: 'listitem',
          class: `channel${tab === 'messages' && c.id === state.channel ? ' active' : ''}`,
          'data-channel': c.id,
          onclick: () => openConversation(c.id === state.dm ? '' : c.id),
        },
        c.id === state.dm ? `${c.name} (you)` : c.name,
      ),
    ),
  );
  $('tab-home').classList.toggle('active', tab === 'home');
  $('tab-automations').classList.toggle('active', tab === 'automations');
}

function renderServers() {
  $('servers').replaceChildren(
    ...info.servers.map((s) =>
      h(
        'li',
        {},
        h(
          'button',
          {
            type: 'button',
            class: `channel server${tab === `tools:${s}` ? ' active' : ''}`,
            onclick: () => openTools(s),
          },
          s,
        ),
      ),
    ),
  );
}

function openTools(server) {
  showTab(`tools:${server}`);
  showTools(server, () => openConversation('')).catch((e) => note(e.message));
}

// Someone else's DM: Slack would not show it; the sandbox does, so you can watch the bot refuse a stranger.
function renderOnlooker(state) {
  const own = state.channel === state.dm;
  const owner = state.conversations.find((c) => c.id === state.channel)?.name ?? state.channel;
  $('onlooker').hidden = own || tab !== 'messages';
  $('onlooker').textContent = own
    ? ''
    : `You are looking at ${owner}'s conversation as ${nameOf(state.userId)}. In Slack only its members see ` +
      'it; here you can click its buttons to see how the bot treats someone else.';
  $('message').disabled = !own;
  $('send').disabled = !own;
}

// ---------- state loop (long-poll: the server answers as soon as something changed)
function render(state) {
  // A view the page cannot draw must not stop the page from following the bot.
  const parts = [
    renderConversations,
    renderOnlooker,
    (s) => renderTimeline(s, act),
    (s) => renderHome(s, act),
    (s) => renderModal(s, act),
    (s) => renderAutomations(s, nameOf(s.userId)),
  ];
  for (const part of parts) {
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
      const query = new URLSearchParams({ user: session.me, after: String(version), channel: conversation });
      const res = await fetch(`/api/state?${query}`);
      state = await res.json();
      if (!res.ok) throw new Error(state.message);
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

function restart() {
  version = -1;
  shownSidebar = '';
  forgetTimeline();
  forgetModal();
  forgetAutomations();
  loop += 1;
  void follow(loop);
}

function switchTo(personId) {
  session.me = personId;
  setViewer(info.people.find((p) => p.id === personId));
  localStorage.setItem('sandbox-person', personId);
  conversation = '';
  showTab('messages');
  restart();
}

function openConversation(id) {
  conversation = id;
  showTab('messages');
  restart();
}

/** `messages`, `home` or `tools:<server>`. */
function showTab(next) {
  tab = next;
  shownSidebar = '';
  $('timeline').hidden = tab !== 'messages';
  $('composer').hidden = tab !== 'messages';
  $('home').hidden = tab !== 'home';
  $('tools').hidden = !tab.startsWith('tools:');
  $('automations').hidden = tab !== 'automations';
  if (tab !== 'messages') $('onlooker').hidden = true;
  renderServers();
}

function setUpComposer() {
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
  $('composer').addEventListener('submit', (event) => {
    event.preventDefault();
    const text = $('message').value.trim();
    if (!text) return;
    if (!text.startsWith('/')) return note('Only slash commands reach the bot here, e.g. /mcp help');
    note('');
    $('message').value = '';
    post('/api/command', { text }).catch((e) => note(e.message));
  });
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
  $('tab-home').addEventListener('click', () => {
    showTab('home');
    act('/api/home-open', {});
    version = -1;
    loop += 1;
    void follow(loop);
  });
  $('tab-automations').addEventListener('click', () => {
    showTab('automations');
    version = -1;
    loop += 1;
    void follow(loop);
  });
  setUpInspector();
  setUpComposer();
  switchTo(picker.value);
}

void main();
