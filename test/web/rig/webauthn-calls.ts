import type { Page } from 'playwright-core';

/** One `navigator.credentials.get`/`create` call the page made, as the recorder saw it. */
export interface WebAuthnCall {
  kind: 'get' | 'create';
  mediation: string;
  /** `pending`, `resolved`, or `rejected:<error name>`. */
  state: string;
}

/**
 * Records every WebAuthn call of the page and how it ended, so a test can see that a passkey-autofill
 * request (mediation `conditional`) was pending and was aborted when the modal request started.
 * Installed before any page script runs; it wraps the calls and changes nothing else.
 */
export async function recordWebAuthnCalls(page: Page): Promise<void> {
  await page.addInitScript(`(() => {
    const calls = (window.__webauthnCalls = []);
    for (const kind of ['get', 'create']) {
      const original = navigator.credentials[kind].bind(navigator.credentials);
      navigator.credentials[kind] = (options) => {
        const call = { kind, mediation: String((options && options.mediation) || 'optional'), state: 'pending' };
        calls.push(call);
        const result = original(options);
        result.then(() => { call.state = 'resolved'; }, (error) => { call.state = 'rejected:' + (error && error.name); });
        return result;
      };
    }
  })()`);
}

export async function webAuthnCalls(page: Page): Promise<WebAuthnCall[]> {
  return (await page.evaluate('window.__webauthnCalls')) as WebAuthnCall[];
}
