/**
 * A fetch for uploads (a file, or a multipart form holding one) that reports how much of the body
 * went up (fetch cannot): XMLHttpRequest underneath, answering a Response as soon as the headers arrive whose body streams as the server
 * writes it, so a streamed answer (server-sent events) reads live as with fetch. Rejects with a
 * TypeError when the network fails and an AbortError when `signal` aborts, like fetch.
 */
export function xhrFetch(
  url: string,
  init: { method: string; headers: Record<string, string>; body: Blob | FormData; signal?: AbortSignal | undefined },
  onUpload: (sent: number, total: number) => void,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(init.method, url);
    for (const [k, v] of Object.entries(init.headers)) xhr.setRequestHeader(k, v);
    const encoder = new TextEncoder();
    let out: ReadableStreamDefaultController<Uint8Array> | null = null;
    // Once the reader cancelled or the body ended, the stream takes nothing more.
    let ended = false;
    let seen = 0;
    const flush = () => {
      const text = xhr.responseText;
      if (out && !ended && text.length > seen) {
        out.enqueue(encoder.encode(text.slice(seen)));
        seen = text.length;
      }
    };
    const fail = (err: Error) => {
      if (!out) return reject(err);
      if (!ended) out.error(err);
      ended = true;
    };
    const size = init.body instanceof Blob ? init.body.size : 0;
    xhr.upload.onprogress = (e) => onUpload(e.loaded, e.lengthComputable ? e.total : size);
    xhr.onreadystatechange = () => {
      if (xhr.readyState !== XMLHttpRequest.HEADERS_RECEIVED) return;
      const headers = new Headers();
      for (const line of xhr.getAllResponseHeaders().trim().split(/\r?\n/)) {
        const colon = line.indexOf(':');
        if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
      }
      const body = new ReadableStream<Uint8Array>({
        start: (c) => void (out = c),
        cancel: () => {
          ended = true;
          xhr.abort();
        },
      });
      resolve(new Response(body, { status: xhr.status, statusText: xhr.statusText, headers }));
    };
    xhr.onprogress = flush;
    xhr.onload = () => {
      flush();
      if (!ended) out?.close();
      ended = true;
    };
    xhr.onerror = () => fail(new TypeError('Failed to fetch'));
    xhr.onabort = () => fail(new DOMException('The upload was aborted.', 'AbortError'));
    if (init.signal?.aborted) return reject(new DOMException('The upload was aborted.', 'AbortError'));
    init.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(init.body);
  });
}
