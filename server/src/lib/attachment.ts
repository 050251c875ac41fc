import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/** Sends a text stream as a download; Fastify pipes it with back-pressure and destroys it if the client leaves. */
export function sendAttachment(reply: FastifyReply, filename: string, body: Readable): FastifyReply {
  return reply
    .type('text/plain; charset=utf-8')
    .header('Content-Disposition', `attachment; filename="${filename}"`)
    .header('X-Content-Type-Options', 'nosniff')
    .send(body);
}
