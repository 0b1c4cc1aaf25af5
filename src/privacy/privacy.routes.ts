import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AuthDeps } from '../auth/auth-context.js';
import { clearSessionCookie } from '../auth/http.js';
import { authOf } from '../auth/session-hooks.js';
import type { AuthenticationResponseJSON } from '../auth/webauthn.js';
import { eraseMyAccount } from './erasure.service.js';
import { downloadMyExport, listMyExports, requestExport } from './exports.service.js';
import { profileView, updateMyProfile, type ProfileChange } from './profile.service.js';
import { EraseBody, Erased, ExportParams, ExportQueued, ExportSummary, Profile, ProfileBody, RetentionRows } from './privacy.schema.js';
import { retentionTable } from './retention-table.js';

const tags = ['data rights'];
const error = { $ref: 'ErrorResponse#' };

/** Data-subject rights under a session: export, erasure, rectification, the retention table. Mounted at /api/gdpr. */
export function privacyRoutes(deps: AuthDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    // Answers name the caller and carry their data: no cache may keep them.
    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    app.post(
      '/export',
      { schema: { tags, response: { 202: ExportQueued, 401: error, 409: error } }, preHandler: app.requireSession },
      async (request, reply) => reply.status(202).send(await requestExport(deps, authOf(request))),
    );

    app.get(
      '/exports',
      { schema: { tags, response: { 200: Type.Array(ExportSummary), 401: error } }, preHandler: app.requireSession },
      async (request) => listMyExports(deps, authOf(request)),
    );

    app.get(
      '/exports/:id/download',
      { schema: { tags, params: ExportParams, response: { 401: error, 404: error, 409: error, 410: error } }, preHandler: app.requireSession },
      async (request, reply) => {
        const { bundle, readyAt } = await downloadMyExport(deps, authOf(request), request.params.id);
        const day = readyAt.slice(0, 10);
        return reply
          .type('application/zip')
          .header('content-disposition', `attachment; filename="tradelab-data-${day}.zip"`)
          .send(Buffer.from(bundle));
      },
    );

    app.post(
      '/erase',
      { schema: { tags, body: EraseBody, response: { 202: Erased, 400: error, 401: error, 409: error } }, preHandler: app.requireSession },
      async (request, reply) => {
        const erased = await eraseMyAccount(deps, authOf(request), request.body.credential as AuthenticationResponseJSON);
        clearSessionCookie(reply, deps.config);
        return reply.status(202).send(erased);
      },
    );

    app.get(
      '/profile',
      { schema: { tags, response: { 200: Profile, 401: error } }, preHandler: app.requireSession },
      async (request) => profileView(deps.db, deps, authOf(request).userId),
    );

    app.patch(
      '/profile',
      { schema: { tags, body: ProfileBody, response: { 200: Profile, 400: error, 401: error, 403: error, 429: error } }, preHandler: app.requireSession },
      async (request) => updateMyProfile(deps, authOf(request), request.body as ProfileChange),
    );

    app.get(
      '/retention',
      { schema: { tags, response: { 200: RetentionRows, 401: error } }, preHandler: app.requireSession },
      async () => retentionTable(),
    );
  };
}
