/**
 * One passkey as `GET /api/auth/credentials` lists it. Pure data, no imports: the web app uses this very
 * type (a type-only import), so server and browser cannot disagree on it.
 */
export interface CredentialView {
  id: string;
  label: string | null;
  created_at: string;
  last_used_at: string | null;
  transports: string[];
  backup_eligible: boolean;
  backup_state: boolean;
  /** Whether this is the passkey that opened the caller's session. */
  current: boolean;
}
