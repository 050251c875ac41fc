export interface ZipEntry {
  name: string;
  content: string | Buffer;
}

/** Builds a zip in memory (support bundles are small: logs are capped by the callers). */
export async function buildZip(entries: ZipEntry[]): Promise<Buffer> {
  // Loaded on the first bundle made, not at start.
  const { ZipFile } = await import('yazl');
  return new Promise((resolve, reject) => {
    const zip = new ZipFile();
    for (const e of entries)
      zip.addBuffer(Buffer.isBuffer(e.content) ? e.content : Buffer.from(e.content, 'utf8'), e.name);
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('error', reject);
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.end();
  });
}

/** A file name safe for a Content-Disposition header. */
export function attachmentName(base: string, ext: string): string {
  return `${base.replace(/[^A-Za-z0-9._-]/g, '_')}.${ext}`;
}
