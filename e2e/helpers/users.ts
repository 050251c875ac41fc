import { expect } from 'vitest';
/** The contract's roles (e2e drives the app from outside and imports none of its code). */
type Role = 'viewer' | 'operator' | 'admin';

/** Signs the admin in through the API and answers a JSON POST as that admin (cookie and CSRF header sent). */
export async function adminPost(
  baseUrl: string,
  admin: { email: string; password: string },
): Promise<(path: string, body: object) => Promise<Response>> {
  const login = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: admin.email, password: admin.password }),
  });
  expect(login.status).toBe(200);
  const cookies = login.headers.getSetCookie().map((c) => c.split(';')[0]!);
  const csrf = cookies.find((c) => c.startsWith('csrf_access_token='))!.split('=')[1]!;
  return (path, body) =>
    fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: cookies.join('; '), 'x-csrf-token': csrf },
      body: JSON.stringify(body),
    });
}

/** Adds an account through the API, signed in as the admin (the journeys under test are the new user's). */
export async function addUser(
  baseUrl: string,
  admin: { email: string; password: string },
  user: { email: string; password: string; role: Role },
): Promise<void> {
  const post = await adminPost(baseUrl, admin);
  // Account changes are confirmed with the acting admin's current password.
  const made = await post('/api/users', { ...user, current_password: admin.password });
  expect(made.status, await made.clone().text()).toBe(200);
}
