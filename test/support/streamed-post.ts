// A POST whose body goes out chunk after chunk (chunked unless `content-length` is among the headers), to see
// what a server answers a body it refuses while the client still sends: its status, whether it closes the
// connection, and its body's text.
import { request as httpRequest } from 'node:http';

export interface StreamedAnswer {
  status: number;
  connection: string | undefined;
  contentType: string | undefined;
  text: string;
}

export function streamedPost(
  url: URL,
  chunks: readonly Buffer[],
  headers: Record<string, string>,
): Promise<StreamedAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        const { connection, 'content-type': contentType } = res.headers;
        resolve({ status: res.statusCode ?? 0, connection, contentType, text });
      });
    });
    // The server may answer and close while this side still sends: what matters is the answer it read.
    req.on('error', reject);
    const next = (at: number): void => {
      const chunk = chunks[at];
      if (chunk === undefined || req.destroyed) return void req.end();
      if (req.write(chunk)) next(at + 1);
      else req.once('drain', () => next(at + 1));
    };
    next(0);
  });
}
