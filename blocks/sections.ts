// The titled parts of a form that answers several requests at once (FormSpec.sections): each request's
// message as a header (and in full below it when a header cannot hold it), then its fields. A part that
// runs over a page break is titled again on the next page, so every page says which request it is.
import type { HeaderBlock, KnownBlock, SectionBlock } from '@slack/types';
import { HEADER_TEXT_MAX, SECTION_TEXT_MAX } from './slack-limits.js';
import { PAGE_FIELDS, type FieldSpec, type FormSection, type FormSpec } from './spec.js';
import { mrkdwnChunks, neutralise, plain, section, withoutControls } from './text.js';

/**
 * UTF-16 units of request text (headers and messages together) one page of sections may show. A page of fields
 * may take FIELDS_BYTES_MAX (160 kB) of Slack's 250 kB; an unsectioned page's message takes at most 9 sections
 * of 3000 units (27,000 units, ≤ 81 kB at ≤ 3 bytes a unit) of the 90 kB left. A sectioned page draws no such
 * message, so its sections share that part instead: 26,000 units (≤ 78 kB) plus the JSON of up to 2 × 20 blocks
 * (≤ 3 kB) stay within those 81 kB. Up to 8 sections on a page keep 3000 units of message each; 20 keep 1150
 * (1300 each, less a 150-unit header).
 */
export const SECTIONS_TEXT_MAX = 26_000;

/**
 * The blocks of `page`: each section present on it (by its first field there; a section without fields on
 * the page its start falls on, or the last page) titled, then its fields drawn by `draw`.
 */
export function sectionedFields(
  spec: FormSpec & { sections: FormSection[] },
  page: number,
  pageFields: FieldSpec[],
  draw: (field: FieldSpec) => KnownBlock[],
): KnownBlock[] {
  const from = page * PAGE_FIELDS;
  const to = from + pageFields.length;
  const lastPage = Math.max(0, Math.ceil(spec.fields.length / PAGE_FIELDS) - 1);
  const shown = spec.sections.filter((part) =>
    part.count === 0
      ? Math.min(Math.floor(part.start / PAGE_FIELDS), lastPage) === page
      : part.start < to && part.start + part.count > from,
  );
  // Each section's share of the page's text, less its header, is what its message may show under the header.
  const share = Math.floor(SECTIONS_TEXT_MAX / Math.max(1, shown.length));
  const messageMax = Math.min(SECTION_TEXT_MAX, share - HEADER_TEXT_MAX);
  return shown.flatMap((part) => {
    const own = pageFields.slice(
      Math.max(part.start, from) - from,
      Math.min(part.start + part.count, to) - from,
    );
    return [...title(part.message, messageMax), ...own.flatMap(draw)];
  });
}

/** The request's message as a header; in a section under it (cut to `max`) when the header had to cut it. */
function title(message: string, max: number): (HeaderBlock | SectionBlock)[] {
  // Control characters show as nothing and would cost 6 bytes each in JSON, over the budget's 3 a unit.
  const text = withoutControls(neutralise(message)).trim();
  const header: HeaderBlock = { type: 'header', text: plain(text.split('\n')[0] || '…', HEADER_TEXT_MAX) };
  if (header.text.text === text) return [header];
  return [header, ...mrkdwnChunks(message, max, 1).map(section)];
}
