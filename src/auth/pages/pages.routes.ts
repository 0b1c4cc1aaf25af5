import type { FastifyPluginAsync } from 'fastify';
import { escapeHtml } from '../../platform/mail/layout.js';
import { RECOVER_SCRIPT, VERIFY_EMAIL_SCRIPT } from './page-scripts.js';

function page(title: string, text: string, button: string, script: string): string {
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)} · tradelab</title>`,
    `<script type="module" src="/auth-pages/${script}"></script></head>`,
    '<body><main>',
    `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>`,
    `<button id="go" type="button">${escapeHtml(button)}</button>`,
    '<p id="status" role="status"></p>',
    '</main></body></html>',
  ].join('\n');
}

const PAGES = {
  verify: page('Confirm your email address', 'Press the button to confirm this address for your tradelab account.', 'Confirm', 'verify-email.js'),
  recover: page(
    'Recover your account',
    'Press the button to create a new passkey. Your old passkeys will stop working and every device will be signed out.',
    'Create a new passkey',
    'recover.js',
  ),
};

/**
 * The pages mail links open (until the web app serves them). They change nothing when fetched: only
 * the button calls the API, so a mail scanner that follows links consumes no token.
 */
export const authPageRoutes: FastifyPluginAsync = async (app) => {
  const html = (body: string) => async (_request: unknown, reply: import('fastify').FastifyReply) =>
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(body);
  const js = (body: string) => async (_request: unknown, reply: import('fastify').FastifyReply) =>
    reply.type('text/javascript; charset=utf-8').send(body);
  app.get('/verify-email', { schema: { hide: true } }, html(PAGES.verify));
  app.get('/recover', { schema: { hide: true } }, html(PAGES.recover));
  app.get('/auth-pages/verify-email.js', { schema: { hide: true } }, js(VERIFY_EMAIL_SCRIPT));
  app.get('/auth-pages/recover.js', { schema: { hide: true } }, js(RECOVER_SCRIPT));
};
