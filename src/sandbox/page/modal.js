// The open modal: only the top of the person's view stack shows, as in Slack, with a back arrow when
// views were pushed (views.push, response_action push). The close button closes the top view (back to the
// one under it), the X closes the whole stack. Field errors from `response_action: "errors"` appear under
// their input blocks.
import { $, h } from './dom.js';
import { plainText } from './mrkdwn.js';
import { blocks } from './blocks.js';
import { inspectButton } from './inspector.js';
import { post } from './api.js';

let shown = { key: '', errors: '' };
let current = null;
/**
 * The modals built for the views still on the stack, by view id, hash and depth: going back to a view shows
 * it as the person left it, typed answers included, as Slack keeps "prior state still intact".
 */
const built = new Map();

/** Shows `message` at the top of the open modal; false when no modal is open. */
export function modalBanner(message) {
  if (!current) return false;
  current.banner.textContent = message;
  current.banner.hidden = false;
  return true;
}

export function forgetModal() {
  shown = { key: '', errors: '' };
  built.clear();
}

export function renderModal(state, act) {
  const layer = $('modal-layer');
  const top = state.views[state.views.length - 1];
  if (!top) {
    shown.key = '';
    current = null;
    built.clear();
    layer.hidden = true;
    return layer.replaceChildren();
  }
  const depth = state.views.length;
  const key = `${top.id}|${top.hash}|${depth}`;
  if (key !== shown.key) {
    shown = { key, errors: '' };
    const onStack = new Set(state.views.map((v, i) => `${v.id}|${v.hash}|${i + 1}`));
    for (const old of built.keys()) if (!onStack.has(old)) built.delete(old);
    const modal = built.get(key) ?? buildModal(top, depth, act);
    built.set(key, modal);
    current = { id: top.id, banner: modal.banner };
    layer.replaceChildren(modal.form);
    layer.hidden = false;
  }
  const errors = JSON.stringify(top.errors);
  if (errors !== shown.errors) {
    shown.errors = errors;
    for (const node of layer.querySelectorAll('[data-error-for]')) {
      const message = top.errors[node.dataset.errorFor] ?? '';
      node.textContent = message;
      node.closest('.input-block').classList.toggle('has-error', message !== '');
    }
  }
}

function readAnswers(inputs) {
  const values = {};
  for (const [blockId, read] of inputs) {
    const v = read();
    if (v !== undefined) values[blockId] = v;
  }
  return values;
}

function buildModal(top, depth, act) {
  const view = top.view;
  const inputs = new Map();
  const banner = h('div', { class: 'banner', role: 'alert', hidden: true });
  const onButton = (el, b) =>
    act('/api/view-action', {
      viewId: top.id,
      actionId: el.action_id,
      blockId: b.block_id,
      value: el.value,
      label: plainText(el.text),
    });
  const suggest = (actionId, value) =>
    post('/api/suggest', { viewId: top.id, actionId, value }).then(
      (answer) => answer.options,
      (e) => {
        modalBanner(e.message);
        return [];
      },
    );
  const close = () => act('/api/close', { viewId: top.id });
  const closeAll = () => act('/api/close', { viewId: top.id, all: true });
  const submit = (event) => {
    event.preventDefault();
    banner.hidden = true;
    post('/api/submit', { viewId: top.id, values: readAnswers(inputs) }).catch((e) => modalBanner(e.message));
  };
  const titleId = `title-${top.id}`;
  const form = h(
    'form',
    {
      class: `modal${depth > 1 ? ' stacked' : ''}`,
      novalidate: true,
      'data-depth': depth,
      onsubmit: submit,
      'data-view-id': top.id,
      role: 'dialog',
      'aria-labelledby': titleId,
    },
    h(
      'div',
      { class: 'modal-head' },
      depth > 1
        ? h('button', { type: 'button', class: 'x', 'aria-label': 'Back', onclick: close }, '‹')
        : null,
      h('div', { class: 'title', id: titleId }, plainText(view.title)),
      inspectButton(`Modal ${top.id}`, view, top.issues),
      h('button', { type: 'button', class: 'x', 'aria-label': 'Close', onclick: closeAll }, '×'),
    ),
    h('div', { class: 'modal-body' }, banner, blocks(view.blocks, { inputs, onButton, suggest })),
    h(
      'div',
      { class: 'modal-foot' },
      h(
        'button',
        { type: 'button', class: 'btn', onclick: close },
        plainText(view.close) || (depth > 1 ? 'Back' : 'Cancel'),
      ),
      view.submit ? h('button', { type: 'submit', class: 'btn primary' }, plainText(view.submit)) : null,
    ),
  );
  return { form, banner };
}
