import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { cspDirectives, cspHeaderValue } from './security-headers.js';

export const ErrorResponse = Type.Object(
  {
    error: Type.String({ description: 'Machine-readable code, snake_case' }),
    message: Type.String({ description: 'What went wrong, in words' }),
    details: Type.Optional(Type.Array(Type.Object({ field: Type.Optional(Type.String()), message: Type.String() }))),
  },
  { $id: 'ErrorResponse', description: 'Every error has this shape.' },
);

/** OpenAPI 3 generated from the route schemas, served at /openapi.json, with a browsable UI at /docs. */
export async function registerOpenApi(app: FastifyInstance, publicOrigin: string): Promise<void> {
  app.addSchema(ErrorResponse);
  await app.register(swagger, {
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'tradelab API',
        version: '0.1.0',
        description: 'Trading research for individual retail traders. Errors are `{error, message, details?}`.',
      },
      servers: [{ url: publicOrigin }],
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'service_session' },
        },
      },
    },
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    // Swagger UI sets inline styles; the rest of the policy is the app's own.
    staticCSP: cspHeaderValue(cspDirectives(publicOrigin, { inlineStyles: true })),
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
