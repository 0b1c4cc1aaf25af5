import type { CDPSession, Page } from 'playwright-core';

/** A credential as the CDP WebAuthn domain reports it. */
export interface VirtualCredential {
  credentialId: string;
  isResidentCredential: boolean;
  rpId?: string;
  privateKey: string;
  userHandle?: string;
  signCount: number;
}

/** `internal` (a platform authenticator, the default) or `usb` (a security key); presence given by itself or not. */
export interface DeviceOptions {
  transport?: 'internal' | 'usb';
  presence?: boolean;
}

/**
 * A platform authenticator simulated by Chromium through the DevTools protocol: CTAP2, resident keys,
 * user verification that always succeeds, and presence given without a prompt. Several can exist;
 * `detach` and `attach` model picking up another device.
 */
export class VirtualAuthenticator {
  /**
   * Credentials the browser removed from an authenticator (`WebAuthn.credentialDeleted`), e.g. after the
   * page sent `PublicKeyCredential.signalUnknownCredential` or `signalAllAcceptedCredentials`.
   */
  readonly deleted: { authenticatorId: string; credentialId: string }[] = [];

  private constructor(
    private readonly cdp: CDPSession,
    private id: string | undefined,
  ) {
    cdp.on('WebAuthn.credentialDeleted', (event) => this.deleted.push(event));
  }

  /** A new device on the page: empty unless `credentials` are given (Chromium allows one `internal` device at a time). */
  static async attach(page: Page, credentials: readonly VirtualCredential[] = [], options: DeviceOptions = {}): Promise<VirtualAuthenticator> {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable', { enableUI: false });
    const authenticator = new VirtualAuthenticator(cdp, undefined);
    await authenticator.reattach(credentials, options);
    return authenticator;
  }

  /**
   * Plugs the device in again (a new authenticator holding the given credentials, or none). Without
   * presence (`presence: false`) a request waits until `setPresence(true)`: in Chromium a passkey-autofill
   * request then stays pending, where with presence it is answered at once (with a passkey for the site)
   * or refused (without one).
   */
  async reattach(credentials: readonly VirtualCredential[] = [], options: DeviceOptions = {}): Promise<void> {
    const { authenticatorId } = await this.cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: options.transport ?? 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: options.presence ?? true,
      },
    });
    this.id = authenticatorId;
    await this.addCredentials(credentials);
  }

  /** Puts credentials onto the plugged-in device (a passkey manager that also holds another device's passkeys). */
  async addCredentials(credentials: readonly VirtualCredential[]): Promise<void> {
    for (const credential of credentials) {
      await this.cdp.send('WebAuthn.addCredential', { authenticatorId: this.requireId(), credential });
    }
  }

  /** Turns the simulated touch (user presence) on or off: off, a request waits for it. */
  async setPresence(present: boolean): Promise<void> {
    await this.cdp.send('WebAuthn.setAutomaticPresenceSimulation', { authenticatorId: this.requireId(), enabled: present });
  }

  /** Unplugs the device; its credentials are returned so that it can be plugged in again later. */
  async detach(): Promise<VirtualCredential[]> {
    const credentials = await this.credentials();
    await this.cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: this.requireId() });
    this.id = undefined;
    return credentials;
  }

  /** The id of the authenticator plugged in now. */
  get authenticatorId(): string {
    return this.requireId();
  }

  /** Waits until the browser has removed the credential from an authenticator, or fails after `timeoutMs`. */
  async waitForDeleted(credentialId: string, timeoutMs = 5_000): Promise<{ authenticatorId: string; credentialId: string }> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.deleted.find((event) => event.credentialId === credentialId);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`the browser did not delete credential ${credentialId} within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  async credentials(): Promise<VirtualCredential[]> {
    const { credentials } = await this.cdp.send('WebAuthn.getCredentials', { authenticatorId: this.requireId() });
    return credentials as VirtualCredential[];
  }

  private requireId(): string {
    if (!this.id) throw new Error('the virtual authenticator is detached');
    return this.id;
  }
}
