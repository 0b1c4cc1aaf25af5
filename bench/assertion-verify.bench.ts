/**
 * Issue 17, sign-in: what verifying one assertion costs in-process, @simplewebauthn's
 * `verifyAuthenticationResponse` (WebCrypto: async digests, the COSE key imported on every call; what the service
 * used before) against `checkAssertion` (the same checks on synchronous node:crypto, the key parsed once), for each
 * algorithm registration accepts. Alternating rows; CPU time of this process per verification.
 *
 *   npx tsx bench/assertion-verify.bench.ts            (ROUNDS=3 N=3000)
 */
import os from 'node:os';
import { generateRegistrationOptions, verifyAuthenticationResponse, verifyRegistrationResponse, type AuthenticationResponseJSON } from '@simplewebauthn/server';
import { checkAssertion } from '../src/auth/assertion-verification.js';
import { SUPPORTED_ALGORITHMS } from '../src/auth/webauthn.js';
import { SoftwareAuthenticator, type Algorithm } from '../test/helpers/software-authenticator.js';

const ORIGIN = 'http://localhost:3000';
const RP_ID = 'localhost';
const N = Number(process.env.N ?? 3000);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const challengeOf = (i: number) => Buffer.from(`challenge ${String(i).padStart(22, '0')}`).toString('base64url');

async function setUp(algorithm: Algorithm) {
  const authenticator = new SoftwareAuthenticator({ origin: ORIGIN, algorithm, signCount: 'zero' });
  const creation = await generateRegistrationOptions({ rpName: 'x', rpID: RP_ID, userName: 'a@example.com', attestationType: 'none', supportedAlgorithmIDs: SUPPORTED_ALGORITHMS });
  const registration = await verifyRegistrationResponse({
    response: authenticator.createCredential(creation),
    expectedChallenge: creation.challenge,
    expectedOrigin: ORIGIN,
    expectedRPID: RP_ID,
    supportedAlgorithmIDs: SUPPORTED_ALGORITHMS,
  });
  if (!registration.verified) throw new Error('registration failed');
  const publicKey = registration.registrationInfo.credential.publicKey;
  const assertions: AuthenticationResponseJSON[] = [];
  for (let i = 0; i < N; i += 1) assertions.push(authenticator.getAssertion({ challenge: challengeOf(i), rpId: RP_ID }));
  return { publicKey, assertions };
}

async function library(response: AuthenticationResponseJSON, challenge: string, publicKey: Uint8Array<ArrayBuffer>): Promise<boolean> {
  const result = await verifyAuthenticationResponse({
    response,
    expectedChallenge: challenge,
    expectedOrigin: ORIGIN,
    expectedRPID: RP_ID,
    requireUserVerification: true,
    credential: { id: response.id, publicKey, counter: 0 },
  });
  return result.verified;
}

async function time(label: string, run: () => Promise<unknown> | unknown) {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await run();
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { label, per_second: Math.round((N / wallMs) * 1000), wall_us: Math.round((wallMs * 1000) / N), cpu_us: Math.round((used.user + used.system) / N) };
}

const rows = [];
for (const algorithm of ['ES256', 'EdDSA', 'RS256'] as const) {
  const { publicKey, assertions } = await setUp(algorithm);
  const expected = (i: number) => ({ origin: ORIGIN, rpId: RP_ID, challenge: challengeOf(i) });
  if (!(await library(assertions[0]!, challengeOf(0), publicKey)) || !checkAssertion(assertions[0]!, expected(0), publicKey)) throw new Error('refused a good assertion');
  for (let round = 0; round < ROUNDS; round += 1) {
    rows.push(
      await time(`${algorithm} library, one at a time`, async () => {
        for (let i = 0; i < N; i += 1) await library(assertions[i]!, challengeOf(i), publicKey);
      }),
    );
    rows.push(
      await time(`${algorithm} library, 8 in flight`, async () => {
        for (let i = 0; i < N; i += 8) await Promise.all(assertions.slice(i, i + 8).map((a, j) => library(a, challengeOf(i + j), publicKey)));
      }),
    );
    rows.push(
      await time(`${algorithm} checkAssertion`, () => {
        for (let i = 0; i < N; i += 1) if (!checkAssertion(assertions[i]!, expected(i), publicKey)) throw new Error('refused');
      }),
    );
  }
}
console.log(`assertion verification, ${N} per row, load average ${os.loadavg().map((n) => n.toFixed(2)).join(' ')}`);
console.table(rows);
