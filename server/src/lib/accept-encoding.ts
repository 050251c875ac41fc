/** The encoding to answer with for an Accept-Encoding header: brotli, else gzip, else none (q=0 refuses). */
export function acceptedEncoding(header: string | string[] | undefined): 'br' | 'gzip' | null {
  const offered = new Set<string>();
  for (const part of String(header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)?.[1]).find((v) => v !== undefined);
    if (name && (q === undefined || Number(q) > 0)) offered.add(name);
  }
  if (offered.has('br')) return 'br';
  if (offered.has('gzip') || offered.has('*')) return 'gzip';
  return null;
}
