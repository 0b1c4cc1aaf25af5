/**
 * The two scripts of the mail-link pages, served as files (the CSP forbids inline script). Each
 * calls the API only when the person presses the button, so a mail scanner that fetches the link
 * consumes nothing. Hand-written ES modules: no bundler exists yet.
 */
export const VERIFY_EMAIL_SCRIPT = `
const token = new URLSearchParams(location.search).get('token') ?? '';
const button = document.getElementById('go');
const status = document.getElementById('status');
button.addEventListener('click', async () => {
  button.disabled = true;
  status.textContent = 'Confirming…';
  const response = await fetch('/api/auth/email/verify?token=' + encodeURIComponent(token), { credentials: 'same-origin' });
  const body = await response.json().catch(() => ({}));
  status.textContent = response.ok
    ? 'Your address is confirmed. You can now sign in with your passkey.'
    : (body.message || 'This link did not work.');
});
`;

export const RECOVER_SCRIPT = `
const token = new URLSearchParams(location.search).get('token') ?? '';
const button = document.getElementById('go');
const status = document.getElementById('status');
const toBytes = (s) => Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(s.length / 4) * 4, '=')), (c) => c.charCodeAt(0));
const toB64url = (buffer) => btoa(String.fromCharCode(...new Uint8Array(buffer))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
const post = (body) => fetch('/api/auth/recovery/complete', {
  method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
});
button.addEventListener('click', async () => {
  button.disabled = true;
  try {
    status.textContent = 'Checking the link…';
    const first = await post({ token });
    const options = await first.json();
    if (!first.ok) throw new Error(options.message || 'This link did not work.');
    status.textContent = 'Follow your browser to create the new passkey…';
    const created = await navigator.credentials.create({ publicKey: {
      ...options,
      challenge: toBytes(options.challenge),
      user: { ...options.user, id: toBytes(options.user.id) },
      excludeCredentials: (options.excludeCredentials || []).map((c) => ({ ...c, id: toBytes(c.id) })),
    } });
    const credential = {
      id: created.id,
      rawId: toB64url(created.rawId),
      type: created.type,
      authenticatorAttachment: created.authenticatorAttachment || undefined,
      clientExtensionResults: created.getClientExtensionResults(),
      response: {
        clientDataJSON: toB64url(created.response.clientDataJSON),
        attestationObject: toB64url(created.response.attestationObject),
        transports: created.response.getTransports ? created.response.getTransports() : [],
      },
    };
    const second = await post({ token, credential });
    const result = await second.json();
    if (!second.ok) throw new Error(result.message || 'The new passkey was not accepted.');
    status.textContent = 'Done: your new passkey is ready and you are signed in. Your old passkeys no longer work.';
  } catch (error) {
    status.textContent = error.message || String(error);
    button.disabled = false;
  }
});
`;
