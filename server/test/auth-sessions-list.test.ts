import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session, User } from '@berth/contract';
import { createTestApp, REAUTH, type TestApp, type TestClient } from './helpers/app';

let t: TestApp;
let viewer: User;
const VIEWER = { email: 'sessions-viewer@berth.test', password: 'sessions-viewer-pw' };

beforeAll(async () => {
  t = await createTestApp();
  viewer = (await t.client.post<User>('/api/users', { ...VIEWER, role: 'viewer', ...REAUTH })).body;
});
afterAll(async () => {
  await t?.close();
});

async function signIn(userAgent: string, remoteAddress = '127.0.0.1'): Promise<TestClient> {
  const c = t.anon(remoteAddress);
  const res = await c.post(
    '/api/auth/login',
    { username: VIEWER.email, password: VIEWER.password },
    { 'user-agent': userAgent },
  );
  expect(res.status, res.text).toBe(200);
  return c;
}

describe('sessions', () => {
  it('lists one’s own live sessions with device, address and times, and ends one of them', async () => {
    const laptop = await signIn('Laptop/1.0', '10.0.0.7');
    const phone = await signIn('Phone/2.0');
    const list = await laptop.get<Session[]>('/api/auth/sessions');
    expect(list.status, list.text).toBe(200);
    const mine = list.body.find((s) => s.current)!;
    expect(mine).toMatchObject({ device: 'Laptop/1.0', address: '10.0.0.7', user_id: viewer.id });
    expect(mine.created_at).toEqual(expect.any(String));
    expect(mine.last_used_at).toEqual(expect.any(String));
    const other = list.body.find((s) => s.device === 'Phone/2.0' && !s.current)!;
    expect(other).toBeDefined();

    expect((await laptop.delete(`/api/auth/sessions/${other.id}`)).status).toBe(200);
    expect((await phone.get('/api/auth/me')).status).toBe(401);
    expect((await laptop.get<Session[]>('/api/auth/sessions')).body.some((s) => s.id === other.id)).toBe(false);
  });

  it('a viewer can neither see nor end another user’s sessions; an admin can', async () => {
    const c = await signIn('Tablet/3.0');
    const adminSessions = (await t.client.get<Session[]>('/api/auth/sessions')).body;
    const adminSession = adminSessions.find((s) => s.current)!;
    expect((await c.get(`/api/auth/sessions?user_id=${adminSession.user_id}`)).status).toBe(403);
    // Another user's session answers like a missing one.
    expect((await c.delete(`/api/auth/sessions/${adminSession.id}`)).status).toBe(404);
    expect((await t.client.get('/api/auth/me')).status).toBe(200);

    const theirs = await t.client.get<Session[]>(`/api/auth/sessions?user_id=${viewer.id}`);
    const tablet = theirs.body.find((s) => s.device === 'Tablet/3.0')!;
    expect(tablet.current).toBe(false);
    expect((await t.client.delete(`/api/auth/sessions/${tablet.id}`)).status).toBe(200);
    expect((await c.get('/api/auth/me')).status).toBe(401);
  });

  it('an admin ends every session of a user at once', async () => {
    const a = await signIn('A/1');
    const b = await signIn('B/1');
    expect((await t.client.delete(`/api/users/${viewer.id}/sessions`)).status).toBe(200);
    expect((await a.get('/api/auth/me')).status).toBe(401);
    expect((await b.get('/api/auth/me')).status).toBe(401);
    expect((await t.client.get<Session[]>(`/api/auth/sessions?user_id=${viewer.id}`)).body).toEqual([]);
  });
});
