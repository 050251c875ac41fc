import { z } from 'zod';

/** A time in a query: ISO text or Unix seconds (as the docker CLI takes it); parses to milliseconds. */
export const QueryInstant = z
  .string()
  .trim()
  .max(64)
  .transform((v, ctx) => {
    const ms = /^\d+(\.\d+)?$/.test(v) ? Number(v) * 1000 : Date.parse(v);
    if (!Number.isFinite(ms)) {
      ctx.addIssue({ code: 'custom', message: 'Use an ISO time (2026-01-31T12:00:00Z) or Unix seconds.' });
      return z.NEVER;
    }
    return ms;
  });
