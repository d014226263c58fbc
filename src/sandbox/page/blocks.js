// Block Kit blocks and input elements to DOM. Input elements register a reader per block_id in
// ctx.inputs, giving the answer the driver turns into view.state.values; buttons call ctx.onButton.
import { h } from './dom.js';
import { plainText, textObj } from './mrkdwn.js';

function button(el, ctx) {
  const cls = `btn${el.style === 'primary' ? ' primary' : el.style === 'danger' ? ' danger' : ''}`;
  return h(
    'button',
    {
      type: 'button',
      class: cls,
      'data-action-id': el.action_id,
      disabled: !ctx.onButton,
      onclick: () => {
        if (el.url) window.open(el.url, '_blank', 'noopener');
        ctx.onButton?.(el);
      },
    },
    plainText(el.text),
  );
}

function nonInput(el, ctx) {
  if (!el) return null;
  if (el.type === 'button') return button(el, ctx);
  if (el.type === 'image') return h('span', { class: 'image-alt' }, `[image: ${el.alt_text ?? ''}]`);
  if (el.type === 'mrkdwn' || el.type === 'plain_text') return textObj(el);
  return h('span', { class: 'unsupported' }, `[${el.type} is not shown by the sandbox]`);
}

function block(b, ctx) {
  switch (b.type) {
    case 'header':
      return h('div', { class: 'block header' }, plainText(b.text));
    case 'divider':
      return h('hr', { class: 'divider' });
    case 'section':
      return h(
        'div',
        { class: 'block section', 'data-block-id': b.block_id },
        h(
          'div',
          { class: 'text' },
          textObj(b.text),
          b.fields ? h('div', { class: 'fields' }, b.fields.map(textObj)) : null,
        ),
        b.accessory
          ? nonInput(b.accessory, { ...ctx, onButton: ctx.onButton && ((el) => ctx.onButton(el, b)) })
          : null,
      );
    case 'context':
      return h(
        'div',
        { class: 'block context' },
        (b.elements ?? []).map((e) => nonInput(e, ctx)),
      );
    case 'actions':
      return h(
        'div',
        { class: 'block actions', 'data-block-id': b.block_id },
        (b.elements ?? []).map((e) =>
          nonInput(e, { ...ctx, onButton: ctx.onButton && ((el) => ctx.onButton(el, b)) }),
        ),
      );
    case 'image':
      return h('div', { class: 'block' }, nonInput(b, ctx));
    case 'input':
      return ctx.inputs
        ? inputBlock(b, ctx)
        : h('div', { class: 'unsupported' }, '[input block outside a view]');
    case 'markdown':
      return h('div', { class: 'block plain' }, b.text);
    case 'rich_text':
      return h('div', { class: 'block plain' }, JSON.stringify(b.elements));
    default:
      return h('div', { class: 'unsupported' }, `[block ${b.type}]`);
  }
}

export const blocks = (list, ctx) => (list ?? []).map((b) => block(b, ctx));

// ---------- input elements: each returns { node, read } where read() is the answer for /api/submit
function options(el) {
  return el.option_groups ? el.option_groups.flatMap((g) => g.options ?? []) : (el.options ?? []);
}

function optionNodes(el, selected) {
  const opt = (o) => h('option', { value: o.value, selected: selected.includes(o.value) }, plainText(o.text));
  if (el.option_groups)
    return el.option_groups.map((g) =>
      h('optgroup', { label: plainText(g.label) }, (g.options ?? []).map(opt)),
    );
  return (el.options ?? []).map(opt);
}

const filled = (v) => (v === '' ? undefined : v);
const localDateTime = (secs) => {
  const d = new Date(secs * 1000);
  const p = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
};

function textInput(el, type) {
  const attrs = {
    type,
    placeholder: plainText(el.placeholder),
    value: el.initial_value ?? '',
    'data-element': el.type,
  };
  if (el.type === 'plain_text_input')
    Object.assign(attrs, { maxLength: el.max_length ?? undefined, minLength: el.min_length ?? undefined });
  if (el.type === 'number_input')
    Object.assign(attrs, { step: el.is_decimal_allowed ? 'any' : '1', min: el.min_value, max: el.max_value });
  const node = el.multiline ? h('textarea', { ...attrs, type: undefined }) : h('input', attrs);
  return { node, read: () => filled(node.value) };
}

function choiceList(el, blockId, multi) {
  const initial = multi ? (el.initial_options ?? []).map((o) => o.value) : [el.initial_option?.value];
  const boxes = options(el).map((o) =>
    h('input', {
      type: multi ? 'checkbox' : 'radio',
      name: `${blockId}-${el.action_id}`,
      value: o.value,
      checked: initial.includes(o.value),
    }),
  );
  const node = h(
    'div',
    { 'data-element': el.type, role: 'group' },
    options(el).map((o, i) =>
      h(
        'label',
        { class: 'choice' },
        boxes[i],
        h(
          'span',
          {},
          plainText(o.text),
          o.description ? h('span', { class: 'field-hint' }, ` ${plainText(o.description)}`) : null,
        ),
      ),
    ),
  );
  const read = () => {
    const values = boxes.filter((b) => b.checked).map((b) => b.value);
    return multi ? (values.length ? values : undefined) : values[0];
  };
  return { node, read };
}

function select(el, multi) {
  const initial = multi ? (el.initial_options ?? []).map((o) => o.value) : [el.initial_option?.value];
  const node = h(
    'select',
    {
      multiple: multi,
      size: multi ? Math.min(8, options(el).length + (el.option_groups?.length ?? 0)) : undefined,
      'data-element': el.type,
    },
    multi ? null : h('option', { value: '' }, plainText(el.placeholder) || '—'),
    optionNodes(el, initial),
  );
  const read = () => {
    const values = [...node.selectedOptions].map((o) => o.value).filter((v) => v !== '');
    return multi ? (values.length ? values : undefined) : values[0];
  };
  return { node, read };
}

// An external select: type, and the bot's suggestions (block_suggestion, via ctx.suggest) appear below;
// clicking one picks it. Slack asks only after min_query_length characters (default 3).
function externalSelect(el, ctx, multi) {
  const chosen = new Map(
    (multi ? (el.initial_options ?? []) : [el.initial_option].filter(Boolean)).map((o) => [o.value, o]),
  );
  const input = h('input', {
    type: 'text',
    role: 'combobox',
    autocomplete: 'off',
    'aria-autocomplete': 'list',
    'aria-label': plainText(el.placeholder) || 'Type to search',
    placeholder: plainText(el.placeholder),
    value: multi ? '' : plainText([...chosen.values()][0]?.text),
  });
  const list = h('ul', { role: 'listbox', class: 'suggestion-list', hidden: true });
  const chips = h('div', { class: 'chips' });
  const showChips = () =>
    chips.replaceChildren(
      ...[...chosen.values()].map((o) => h('span', { class: 'chip' }, plainText(o.text))),
    );
  const choose = (o) => {
    if (!multi) chosen.clear();
    chosen.set(o.value, o);
    input.value = multi ? '' : plainText(o.text);
    list.hidden = true;
    showChips();
  };
  let asked = 0;
  input.addEventListener('input', () => {
    if (!multi) chosen.clear();
    const query = input.value;
    const n = ++asked;
    if ([...query].length < (el.min_query_length ?? 3)) return void (list.hidden = true);
    ctx.suggest(el.action_id, query).then((options) => {
      if (n !== asked) return; // an answer to an earlier keystroke
      list.replaceChildren(
        ...options.map((o) => h('li', { role: 'option', onclick: () => choose(o) }, plainText(o.text))),
      );
      list.hidden = options.length === 0;
    });
  });
  if (multi) showChips();
  const node = h(
    'div',
    { class: 'external', 'data-element': el.type, role: 'group' },
    multi ? chips : null,
    input,
    list,
  );
  const read = () => {
    const values = [...chosen.keys()];
    return multi ? (values.length ? values : undefined) : values[0];
  };
  return { node, read };
}

function element(el, blockId, ctx) {
  switch (el.type) {
    case 'plain_text_input':
      return textInput(el, 'text');
    case 'email_text_input':
      return textInput(el, 'email');
    case 'url_text_input':
      return textInput(el, 'url');
    case 'number_input':
      return textInput(el, 'number');
    case 'datepicker': {
      const node = h('input', { type: 'date', value: el.initial_date ?? '', 'data-element': el.type });
      return { node, read: () => filled(node.value) };
    }
    case 'timepicker': {
      const node = h('input', { type: 'time', value: el.initial_time ?? '', 'data-element': el.type });
      return { node, read: () => filled(node.value) };
    }
    case 'datetimepicker': {
      const value = el.initial_date_time === undefined ? '' : localDateTime(el.initial_date_time);
      const node = h('input', { type: 'datetime-local', value, 'data-element': el.type });
      return {
        node,
        read: () => (node.value ? Math.floor(new Date(node.value).getTime() / 1000) : undefined),
      };
    }
    case 'radio_buttons':
      return choiceList(el, blockId, false);
    case 'checkboxes':
      return choiceList(el, blockId, true);
    case 'static_select':
      return select(el, false);
    case 'multi_static_select':
      return select(el, true);
    case 'external_select':
      return externalSelect(el, ctx, false);
    case 'multi_external_select':
      return externalSelect(el, ctx, true);
    default:
      return {
        node: h('div', { class: 'unsupported' }, `[${el.type} is not supported by the sandbox]`),
        read: () => undefined,
      };
  }
}

// The label names its control (getByLabel in tests, screen readers for people); a group of radio buttons
// or checkboxes is named by it through aria-labelledby, and the error and hint describe the control.
function inputBlock(b, ctx) {
  const { node, read } = element(b.element ?? {}, b.block_id, ctx);
  ctx.inputs.set(b.block_id, read);
  const id = `field-${b.block_id}`;
  const error = h('div', { class: 'field-error', 'data-error-for': b.block_id, id: `${id}-error` });
  const hint = b.hint ? h('div', { class: 'field-hint', id: `${id}-hint` }, plainText(b.hint)) : null;
  node.id = id;
  node.setAttribute('aria-describedby', `${id}-error${hint ? ` ${id}-hint` : ''}`);
  const isGroup = node.getAttribute('role') === 'group';
  if (isGroup) node.setAttribute('aria-labelledby', `${id}-label`);
  return h(
    'div',
    { class: 'block input-block', 'data-block-id': b.block_id },
    h(
      'label',
      { class: 'lbl', id: `${id}-label`, htmlFor: isGroup ? undefined : id },
      plainText(b.label),
      b.optional ? h('span', { class: 'optional' }, ' (optional)') : null,
    ),
    node,
    hint,
    error,
  );
}
