import { Type } from 'typebox';
import { AuthenticationResponse } from '../auth/auth.schema.js';

export const ExportQueued = Type.Object({ id: Type.String(), status: Type.Literal('queued') });

export const ExportSummary = Type.Object({
  id: Type.String(),
  status: Type.Union([Type.Literal('queued'), Type.Literal('ready'), Type.Literal('failed'), Type.Literal('expired')]),
  requested_at: Type.String(),
  ready_at: Type.Union([Type.String(), Type.Null()]),
  expires_at: Type.Union([Type.String(), Type.Null()]),
  byte_size: Type.Union([Type.Integer(), Type.Null()]),
});

export const ExportParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

export const EraseBody = Type.Object({ credential: AuthenticationResponse }, { additionalProperties: false });
export const Erased = Type.Object({ deleted_at: Type.String(), purge_after: Type.String() });

export const ProfileBody = Type.Object(
  {
    display_name: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Null()])),
    email: Type.Optional(Type.String({ minLength: 3, maxLength: 254 })),
    credential: Type.Optional(AuthenticationResponse),
  },
  { additionalProperties: false },
);
export const Profile = Type.Object({
  email: Type.String(),
  display_name: Type.Union([Type.String(), Type.Null()]),
  pending_email: Type.Union([Type.String(), Type.Null()]),
});

export const RetentionRows = Type.Array(Type.Object({ data: Type.String(), kept_for: Type.String(), why: Type.String() }));
