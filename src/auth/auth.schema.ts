import { Type } from 'typebox';

const base64url = (maxLength: number) => Type.String({ minLength: 1, maxLength, pattern: '^[A-Za-z0-9_-]+={0,2}$' });
/** Fields a browser may add that we do not read are allowed; the fields we read are typed. */
const open = { additionalProperties: true } as const;

const credentialId = base64url(1400);

/** RegistrationResponseJSON, as @simplewebauthn/browser's startRegistration returns it. */
export const RegistrationResponse = Type.Object(
  {
    id: credentialId,
    rawId: credentialId,
    type: Type.Literal('public-key'),
    response: Type.Object(
      {
        clientDataJSON: base64url(4096),
        attestationObject: base64url(16384),
        authenticatorData: Type.Optional(base64url(16384)),
        transports: Type.Optional(Type.Array(Type.String({ maxLength: 32 }), { maxItems: 16 })),
        publicKeyAlgorithm: Type.Optional(Type.Integer()),
        publicKey: Type.Optional(base64url(16384)),
      },
      open,
    ),
    authenticatorAttachment: Type.Optional(Type.Union([Type.Literal('platform'), Type.Literal('cross-platform')])),
    clientExtensionResults: Type.Object({}, open),
  },
  { additionalProperties: false },
);

/** AuthenticationResponseJSON, as @simplewebauthn/browser's startAuthentication returns it. */
export const AuthenticationResponse = Type.Object(
  {
    id: credentialId,
    rawId: credentialId,
    type: Type.Literal('public-key'),
    response: Type.Object(
      {
        clientDataJSON: base64url(4096),
        authenticatorData: base64url(16384),
        signature: base64url(16384),
        userHandle: Type.Optional(Type.Union([base64url(128), Type.Null()])),
      },
      open,
    ),
    authenticatorAttachment: Type.Optional(Type.Union([Type.Literal('platform'), Type.Literal('cross-platform')])),
    clientExtensionResults: Type.Object({}, open),
  },
  { additionalProperties: false },
);

/** WebAuthn options exactly as @simplewebauthn/server generates them. */
export const WebAuthnOptions = Type.Object({}, { additionalProperties: true, description: 'PublicKeyCredential{Creation,Request}OptionsJSON' });

export const RegisterOptionsBody = Type.Object(
  {
    email: Type.String({ format: 'email', minLength: 3, maxLength: 254 }),
    display_name: Type.String({ maxLength: 64 }),
  },
  { additionalProperties: false },
);

export const RegisterResult = Type.Object({ user_id: Type.String(), needs_email_verification: Type.Literal(true) });
export const SignedIn = Type.Object({ user_id: Type.String(), role: Type.Union([Type.Literal('user'), Type.Literal('admin')]) });
export const EmailVerified = Type.Object({ email_verified: Type.Literal(true) });
export const TokenQuery = Type.Object({ token: Type.String({ maxLength: 512 }) });

export const SessionView = Type.Object({
  user_id: Type.String(),
  email: Type.String(),
  display_name: Type.Union([Type.String(), Type.Null()]),
  role: Type.Union([Type.Literal('user'), Type.Literal('admin')]),
  /** The WebAuthn user handle (base64url): what the web app names the account by in WebAuthn signals. */
  user_handle: Type.String(),
  expires_at: Type.Union([Type.String(), Type.Null()]),
  step_up_due: Type.Boolean(),
});
export const SessionQuery = Type.Object({ optional: Type.Optional(Type.Literal('1')) }, { additionalProperties: false });
export const Expiry = Type.Object({ expires_at: Type.String() });
export const StepUpResult = Type.Object({ verified_at: Type.String() });
/** 403: `step_up_required` carries options for the assertion; other 403s (`origin_mismatch`) are plain errors. */
export const StepUpRequired = Type.Object({
  error: Type.String(),
  message: Type.String(),
  details: Type.Optional(Type.Array(Type.Object({}, { additionalProperties: true }))),
  options: Type.Optional(WebAuthnOptions),
});

export const Credential = Type.Object({
  id: Type.String(),
  label: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String(),
  last_used_at: Type.Union([Type.String(), Type.Null()]),
  transports: Type.Array(Type.String()),
  backup_eligible: Type.Boolean(),
  backup_state: Type.Boolean(),
  current: Type.Boolean(),
});
export const CredentialParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 1400 }) });
export const RenameBody = Type.Object(
  { label: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);

export const RecoveryStartBody = Type.Object({ email: Type.String({ minLength: 1, maxLength: 254 }) }, { additionalProperties: false });
export const RecoveryCompleteBody = Type.Union([
  Type.Object({ token: Type.String({ maxLength: 512 }) }, { additionalProperties: false }),
  Type.Object({ token: Type.String({ maxLength: 512 }), credential: RegistrationResponse }, { additionalProperties: false }),
]);
export const Empty = Type.Object({}, { additionalProperties: false });
