/**
 * Server-sent events read with fetch instead of EventSource, for streams that may carry
 * thousands of events a second (a container flooding its log). EventSource dispatches one DOM
 * event per message, which at that rate keeps the main thread too busy to answer clicks; here a
 * network chunk of many events is parsed in one go, and while the page is busy the next chunk
 * is simply read later, so the server's back-pressure slows the stream instead of the page.
 */

/** Incremental parser of the text/event-stream format: lines end with LF or CRLF. */
export class SseParser {
  private rest = '';
  private type = '';
  private data: string[] = [];

  constructor(private readonly onEvent: (type: string, data: string) => void) {}

  push(text: string): void {
    const chunk = this.rest + text;
    let start = 0;
    for (let nl = chunk.indexOf('\n'); nl !== -1; nl = chunk.indexOf('\n', start)) {
      const end = nl > start && chunk.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      this.line(chunk.slice(start, end));
      start = nl + 1;
    }
    this.rest = chunk.slice(start);
  }

  private line(line: string): void {
    if (line === '') {
      if (this.data.length > 0) this.onEvent(this.type || 'message', this.data.join('\n'));
      this.type = '';
      this.data = [];
      return;
    }
    if (line.charCodeAt(0) === 58) return; // ':' starts a comment (the server's pings)
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.type = value;
  }
}

export interface ReadEventStreamOptions {
  signal: AbortSignal;
  onOpen: () => void;
  onEvent: (type: string, data: string) => void;
}

/**
 * Reads one connection to its end. Resolves with the HTTP status (the stream's own, or the
 * error status it was refused with); network failures reject, an abort rejects with AbortError.
 */
export async function readEventStream(url: string, opts: ReadEventStreamOptions): Promise<number> {
  const res = await fetch(url, { headers: { Accept: 'text/event-stream' }, credentials: 'same-origin', cache: 'no-store', signal: opts.signal });
  if (!res.ok || !res.body) {
    await res.body?.cancel();
    return res.status;
  }
  opts.onOpen();
  const parser = new SseParser(opts.onEvent);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) parser.push(next.value);
  return res.status;
}
