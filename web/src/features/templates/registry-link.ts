import { parseImageReference } from '@berth/contract';

const HUB_DOMAINS = new Set(['docker.io', 'index.docker.io', 'registry-1.docker.io']);

/**
 * The public page of an image: Docker Hub for hub images (official ones under /_/), none for
 * other registries, whose web pages follow no common pattern.
 */
export function registryPageUrl(image: string): string | null {
  const ref = parseImageReference(image);
  if ('error' in ref) return null;
  if (ref.domain !== null && !HUB_DOMAINS.has(ref.domain)) return null;
  const path = ref.path.replace(/^library\//, '');
  return path.includes('/') ? `https://hub.docker.com/r/${path}` : `https://hub.docker.com/_/${path}`;
}
