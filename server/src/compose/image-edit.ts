import { isScalar } from 'yaml';
import { parseCompose } from './document';

/**
 * `content` with each service's `image:` changed from `from` to `to` (an update by version), the
 * rest of the file byte for byte as it was. Only a plain value equal to `from` is changed: an image
 * set through a variable, an anchor or another file is left alone and its service named in `left`.
 */
export function setServiceImages(
  content: string,
  changes: Record<string, { from: string; to: string }>,
): { content: string; left: string[] } {
  const { doc } = parseCompose(content);
  const edits: { start: number; end: number; text: string }[] = [];
  const left: string[] = [];
  for (const [service, { from, to }] of Object.entries(changes)) {
    const node = doc.getIn(['services', service, 'image'], true);
    const range = isScalar(node) ? node.range : null;
    const source = range ? content.slice(range[0], range[1]) : '';
    // The value as written must be the reference itself (quoted or not), not one made of variables.
    if (!range || !isScalar(node) || node.value !== from || !source.includes(from)) {
      left.push(service);
      continue;
    }
    edits.push({ start: range[0], end: range[1], text: source.replace(from, to) });
  }
  let out = content;
  for (const e of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return { content: out, left };
}
