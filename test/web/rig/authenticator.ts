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

/**
 * A platform authenticator simulated by Chromium through the DevTools protocol: CTAP2, resident keys,
 * user verification that always succeeds, and presence given without a prompt. Several can exist;
 * `detach` and `attach` model picking up another device.
 */
export class VirtualAuthenticator {
  private constructor(
    private readonly cdp: CDPSession,
    private id: string | undefined,
  ) {}

  static async attach(page: Page): Promise<VirtualAuthenticator> {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable', { enableUI: false });
    const authenticator = new VirtualAuthenticator(cdp, undefined);
    await authenticator.reattach();
    return authenticator;
  }

  /** Plugs the device in again (a new authenticator holding the given credentials, or none). */
  async reattach(credentials: readonly VirtualCredential[] = []): Promise<void> {
    const { authenticatorId } = await this.cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    this.id = authenticatorId;
    for (const credential of credentials) {
      await this.cdp.send('WebAuthn.addCredential', { authenticatorId, credential });
    }
  }

  /** Unplugs the device; its credentials are returned so that it can be plugged in again later. */
  async detach(): Promise<VirtualCredential[]> {
    const credentials = await this.credentials();
    await this.cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: this.requireId() });
    this.id = undefined;
    return credentials;
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
