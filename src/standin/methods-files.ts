// File uploads as Slack's files.uploadV2 flow makes them (docs.slack.dev, files.getUploadURLExternal and
// files.completeUploadExternal): ask for an upload URL and file id, POST the bytes there (raw or multipart),
// then complete the upload, which shares the file in `channel_id` as a message carrying it.
import type { Obj } from './blockkit-check.js';
import { type ApiBody, type Handler, fail, nonEmpty } from './methods-chat.js';
import type { Store } from './store.js';

export interface StandinFile {
  id: string;
  filename: string;
  /** Bytes announced in files.getUploadURLExternal. */
  length: number;
  title?: string;
  snippetType?: string;
  /** What was uploaded, as text; undefined until the upload POST arrived. */
  content?: string;
  completed: boolean;
}

/** Path prefix (under the stand-in's origin) of upload URLs. */
export const UPLOAD_PATH = '/upload/';

const getUploadUrl: Handler = (args, store) => {
  const filename = nonEmpty(args.filename);
  const length = Number(args.length);
  if (!filename || !Number.isInteger(length) || length < 0) return fail('invalid_arguments');
  const id = `F0${(0x10000000 + store.next()).toString(36).toUpperCase()}`;
  const snippetType = nonEmpty(args.snippet_type);
  store.files.set(id, { id, filename, length, completed: false, ...(snippetType ? { snippetType } : {}) });
  return { ok: true, upload_url: `${store.origin}${UPLOAD_PATH}${id}`, file_id: id };
};

const completeUpload: Handler = (args, store) => {
  const listed = parseFiles(args.files);
  if (!listed) return fail('invalid_arguments');
  const files = listed.map((entry) => ({ entry, file: store.files.get(entry.id) }));
  if (files.some(({ file }) => file?.content === undefined || file.completed)) return fail('file_not_found');
  const channelArg = nonEmpty(args.channel_id);
  const channel = channelArg ? store.resolveChannel(channelArg) : undefined;
  if (channel && !/^[CG][A-Z0-9]+$/.test(channel) && !store.isDmChannel(channel))
    return fail('channel_not_found');
  const shared = files.map(({ entry, file }) => {
    const done = file as StandinFile;
    done.completed = true;
    if (entry.title) done.title = entry.title;
    return fileObject(done);
  });
  if (channel) {
    const text = nonEmpty(args.initial_comment);
    store.putMessage({ channel, ts: store.nextTs(), text, updates: 0, files: shared });
  }
  return { ok: true, files: shared } satisfies ApiBody;
};

/** Stores the bytes POSTed to an upload URL; Slack answers 200 on success, another status on failure. */
export async function receiveUpload(
  store: Store,
  path: string,
  raw: string,
  contentType: string | undefined,
): Promise<{ status: number; text: string }> {
  const file = store.files.get(path.slice(UPLOAD_PATH.length));
  if (!file || file.content !== undefined) return { status: 404, text: 'Not Found' };
  file.content = await uploadedText(raw, contentType);
  return { status: 200, text: `OK - ${Buffer.byteLength(file.content)}` };
}

async function uploadedText(raw: string, contentType: string | undefined): Promise<string> {
  if (!contentType?.startsWith('multipart/form-data')) return raw;
  const form = await new Response(raw, { headers: { 'content-type': contentType } }).formData();
  const [first] = [...form.values()];
  if (first === undefined) return '';
  return typeof first === 'string' ? first : first.text();
}

function parseFiles(value: unknown): { id: string; title?: string }[] | undefined {
  let list: unknown;
  try {
    list = typeof value === 'string' ? JSON.parse(value) : value;
  } catch {
    return undefined;
  }
  if (!Array.isArray(list) || list.length === 0) return undefined;
  const entries = list.map((item: unknown) => {
    const entry = item as Obj | null;
    const id = typeof entry?.id === 'string' ? entry.id : undefined;
    const title = typeof entry?.title === 'string' ? entry.title : undefined;
    return id ? { id, ...(title ? { title } : {}) } : undefined;
  });
  return entries.every((e) => e !== undefined) ? entries : undefined;
}

function fileObject(file: StandinFile): Obj {
  return {
    id: file.id,
    name: file.filename,
    title: file.title ?? file.filename,
    size: file.length,
    mode: file.snippetType ? 'snippet' : 'hosted',
    filetype: file.snippetType ?? 'text',
  };
}

export const FILE_METHODS: Record<string, Handler> = {
  'files.getUploadURLExternal': getUploadUrl,
  'files.completeUploadExternal': completeUpload,
};
