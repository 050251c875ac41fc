/** The logo URL if the page may load it (https, as the CSP's img-src allows), else null. */
export function showableLogo(src: string | null | undefined): string | null {
  if (!src) return null;
  try {
    return new URL(src).protocol === 'https:' ? src : null;
  } catch {
    return null;
  }
}
