import { describe, expect, it } from 'vitest';
import { registryPageUrl } from './registry-link';

describe('registryPageUrl', () => {
  it('links a user repository on Docker Hub under /r/', () => {
    expect(registryPageUrl('linuxserver/heimdall:latest')).toBe('https://hub.docker.com/r/linuxserver/heimdall');
    expect(registryPageUrl('docker.io/jlesage/handbrake')).toBe('https://hub.docker.com/r/jlesage/handbrake');
  });
  it('links an official image under /_/', () => {
    expect(registryPageUrl('nginx')).toBe('https://hub.docker.com/_/nginx');
    expect(registryPageUrl('library/redis:7')).toBe('https://hub.docker.com/_/redis');
  });
  it('gives no link for other registries or a malformed reference', () => {
    expect(registryPageUrl('127.0.0.1:5000/berth-test/busybox:latest')).toBeNull();
    expect(registryPageUrl('ghcr.io/owner/app')).toBeNull();
    expect(registryPageUrl('Not An Image!')).toBeNull();
  });
});
