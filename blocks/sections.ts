// The titled parts of a form that answers several requests at once (FormSpec.sections): each request's
// message as a header (and in full below it when a header cannot hold it), then its fields. A part that
// runs over a page break is titled again on the next page, so every page says which request it is.
import type { HeaderBlock, KnownBlock, SectionBlock } from '@slack/types';
import { HEADER_TEXT_MAX, SECTION_TEXT_MAX } from './slack-limits.js';
import { PAGE_FIELDS, type FieldSpec, type FormSection, type FormSpec } from './spec.js';
import { mrkdwnChunks, neutralise, plain, section } from './text.js';

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
  return spec.sections.flatMap((part) => {
    const end = part.start + part.count;
    const shown =
      part.count === 0
        ? Math.min(Math.floor(part.start / PAGE_FIELDS), lastPage) === page
        : part.start < to && end > from;
    if (!shown) return [];
    const own = pageFields.slice(Math.max(part.start, from) - from, Math.min(end, to) - from);
    return [...title(part.message), ...own.flatMap(draw)];
  });
}

/** The request's message as a header; in full in a section under it when the header had to cut it. */
function title(message: string): (HeaderBlock | SectionBlock)[] {
  const firstLine = neutralise(message).trim().split('\n')[0] ?? '';
  const header: HeaderBlock = { type: 'header', text: plain(firstLine || '…', HEADER_TEXT_MAX) };
  if (header.text.text === neutralise(message).trim()) return [header];
  return [header, ...mrkdwnChunks(message, SECTION_TEXT_MAX, 1).map(section)];
}
