import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AuthDeps } from '../auth/auth-context.js';
import { stepUpOptions, verifyStepUp } from '../auth/login.service.js';
import { authOf } from '../auth/session-hooks.js';
import type { AuthenticationResponseJSON } from '../auth/webauthn.js';
import {
  AdminUserList,
  AuditEntryList,
  AuditQuery,
  BreachAccepted,
  BreachNotifyBody,
  IncidentList,
  IncidentParams,
  IncidentStepBody,
  IncidentStepView,
  StepUpNeeded,
  UsersQuery,
  ADMIN_DEFAULT_LIMIT,
} from './admin.schema.js';
import { listAccounts, readAudit } from './admin.service.js';
import { listBreachIncidents, notifyBreach, type NotifyInput } from './breach.service.js';
import { recordIncidentStep } from './breach-steps.service.js';
import { Type } from 'typebox';

const tags = ['admin'];
const security = [{ session: [] }];
const error = { $ref: 'ErrorResponse#' };
const refusals = { 400: error, 401: error, 403: error };

/**
 * `/api/admin/*`: every route behind `requireRole('admin')` on request (401 without a session, 403 `forbidden` for
 * a non-admin, before anything else is looked at). Under AUTH_V1=off these paths answer 404 (auth.plugin.ts).
 */
export function adminRoutes(deps: AuthDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const onRequest = app.requireRole('admin');
    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    app.get(
      '/api/admin/users',
      { onRequest, schema: { tags, security, summary: 'Accounts, minimal data (total in X-Total-Count); audited admin.users_read', querystring: UsersQuery, response: { 200: AdminUserList, ...refusals } } },
      async (request, reply) => {
        const { users, total } = await listAccounts(deps, authOf(request), request.query);
        reply.header('x-total-count', String(total));
        return users;
      },
    );

    app.get(
      '/api/admin/audit',
      { onRequest, schema: { tags, security, summary: 'Search the audit log, newest first; the read is itself audited first (admin.audit_read)', querystring: AuditQuery, response: { 200: AuditEntryList, ...refusals } } },
      async (request, reply) => {
        const { entries, total } = await readAudit(deps, authOf(request), request.query);
        reply.header('x-total-count', String(total));
        return entries;
      },
    );

    app.get(
      '/api/admin/breach',
      {
        onRequest,
        schema: {
          tags,
          security,
          summary: 'Breach incidents, newest first, with mail progress, the 72-hour authority deadline and the steps after; audited admin.breach_read',
          querystring: Type.Pick(UsersQuery, ['limit', 'offset']),
          response: { 200: IncidentList, ...refusals },
        },
      },
      async (request, reply) => {
        const { incidents, total } = await listBreachIncidents(deps, authOf(request), { limit: request.query.limit ?? ADMIN_DEFAULT_LIMIT, offset: request.query.offset ?? 0 });
        reply.header('x-total-count', String(total));
        return incidents;
      },
    );

    app.post(
      '/api/admin/breach/notify',
      {
        onRequest,
        schema: {
          tags,
          security,
          summary: 'Start (or with incident_id resume) the breach runbook; needs a fresh step-up assertion in `credential`',
          body: BreachNotifyBody,
          response: { 202: BreachAccepted, 400: error, 401: error, 403: StepUpNeeded, 404: error },
        },
      },
      async (request, reply) => {
        const auth = authOf(request);
        const { credential, ...input } = request.body as NotifyInput & { credential?: AuthenticationResponseJSON };
        // Fresh step-up in this same request: without an assertion, the answer carries the options to make one.
        if (!credential) {
          return reply.status(403).send({
            error: 'step_up_required',
            message: 'Confirm with your passkey to notify affected people.',
            options: await stepUpOptions(deps, auth.userId),
          });
        }
        await verifyStepUp(deps, auth.userId, credential);
        return reply.status(202).send(await notifyBreach(deps, auth, input as NotifyInput));
      },
    );

    app.post(
      '/api/admin/breach/:id/steps',
      {
        onRequest,
        schema: {
          tags,
          security,
          summary: 'Record a step of the runbook after the mailing: authority_notified (once), note, closed; audited breach.step',
          params: IncidentParams,
          body: IncidentStepBody,
          response: { 201: IncidentStepView, ...refusals, 404: error, 409: error },
        },
      },
      async (request, reply) => reply.status(201).send(await recordIncidentStep(deps, authOf(request), request.params.id, request.body)),
    );
  };
}
