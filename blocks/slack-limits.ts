// Slack's documented Block Kit and API limits, declared once: the builders size their output to them and the
// Slack stand-in (src/standin) checks against them. Text limits count characters; each names its doc page.

/** Blocks in one message: 50 (docs.slack.dev/reference/block-kit/blocks). */
export const MESSAGE_BLOCKS_MAX = 50;
/** Blocks in a modal or Home tab view: 100 (docs.slack.dev/reference/block-kit/blocks). */
export const VIEW_BLOCKS_MAX = 100;
/** A message's top-level `text`: 40,000 chars, longer is truncated (docs.slack.dev/reference/methods/chat.postMessage). */
export const MESSAGE_TEXT_MAX = 40_000;
/** A message's `text` as Slack advises it for best results: 4,000 chars (docs.slack.dev/reference/methods/chat.postMessage). */
export const MESSAGE_TEXT_ADVISED_MAX = 4000;
/** A view's JSON: at most 250 kB, else view_too_large (docs.slack.dev/reference/methods/views.open, views.update). */
export const VIEW_BYTES_MAX = 250_000;
/** A modal's title, submit and close texts: 24 chars (docs.slack.dev/reference/views/modal-views). */
export const VIEW_TITLE_MAX = 24;
/** A view's private_metadata: 3000 chars (docs.slack.dev/reference/views/modal-views). */
export const PRIVATE_METADATA_MAX = 3000;
/** callback_id, external_id, block_id and action_id: 255 chars (docs.slack.dev/reference/block-kit/blocks). */
export const ID_MAX = 255;
/** A section block's text: 3000 chars; its fields: 10 of 2000 (docs.slack.dev/reference/block-kit/blocks/section-block). */
export const SECTION_TEXT_MAX = 3000;
export const SECTION_FIELDS_MAX = 10;
export const SECTION_FIELD_TEXT_MAX = 2000;
/** A header block's plain_text: 150 chars (docs.slack.dev/reference/block-kit/blocks/header-block). */
export const HEADER_TEXT_MAX = 150;
/** A context block: 1–10 elements, text elements of 3000 chars (docs.slack.dev/reference/block-kit/blocks/context-block). */
export const CONTEXT_ELEMENTS_MAX = 10;
export const CONTEXT_TEXT_MAX = 3000;
/** An actions block: 1–25 elements (docs.slack.dev/reference/block-kit/blocks/actions-block). */
export const ACTIONS_ELEMENTS_MAX = 25;
/** An input block's label and hint: 2000 chars each (docs.slack.dev/reference/block-kit/blocks/input-block). */
export const INPUT_LABEL_MAX = 2000;
export const INPUT_HINT_MAX = 2000;
/** An image's URL 3000 chars and alt text 2000 (docs.slack.dev/reference/block-kit/blocks/image-block). */
export const IMAGE_URL_MAX = 3000;
export const IMAGE_ALT_TEXT_MAX = 2000;
/** A button's text 75 chars, value 2000, url 3000 (docs.slack.dev/reference/block-kit/block-elements/button-element). */
export const BUTTON_TEXT_MAX = 75;
export const BUTTON_VALUE_MAX = 2000;
export const BUTTON_URL_MAX = 3000;
/** A select's or input's placeholder: 150 chars (docs.slack.dev/reference/block-kit/block-elements/select-menu-element). */
export const PLACEHOLDER_MAX = 150;
/** An option's text and description 75 chars, value 150 (docs.slack.dev/reference/block-kit/composition-objects/option-object). */
export const OPTION_TEXT_MAX = 75;
export const OPTION_VALUE_MAX = 150;
/** An option group's label: 75 chars (docs.slack.dev/reference/block-kit/composition-objects/option-group-object). */
export const OPTION_GROUP_LABEL_MAX = 75;
/** Options (or option groups) of a static select: 100 (docs.slack.dev/reference/block-kit/block-elements/select-menu-element). */
export const SELECT_OPTIONS_MAX = 100;
/** Options of radio buttons and checkboxes: 10 (docs.slack.dev/reference/block-kit/block-elements/radio-button-group-element). */
export const CHOICE_OPTIONS_MAX = 10;
/** Options of an overflow menu: 5 (docs.slack.dev/reference/block-kit/block-elements/overflow-menu-element). */
export const OVERFLOW_OPTIONS_MAX = 5;
/** Options answering one block_suggestion: 100 (docs.slack.dev/reference/interaction-payloads/block_suggestion-payload). */
export const SUGGESTION_OPTIONS_MAX = 100;
/** plain_text_input initial_value and min/max_length: 3000 (docs.slack.dev/reference/block-kit/block-elements/plain-text-input-element). */
export const TEXT_INPUT_MAX = 3000;
/** A confirm dialog: title 100, text 300, confirm and deny 30 chars (docs.slack.dev/reference/block-kit/composition-objects/confirmation-dialog-object). */
export const CONFIRM_TITLE_MAX = 100;
export const CONFIRM_TEXT_MAX = 300;
export const CONFIRM_BUTTON_MAX = 30;
/** A markdown block's text: 12,000 chars (docs.slack.dev/reference/block-kit/blocks/markdown-block). */
export const MARKDOWN_TEXT_MAX = 12_000;
