import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../../src/app.js';
import { buildTestApp, capturingLogger } from '../../helpers/app.js';
import { describeEachDialect } from '../../helpers/dialects.js';

/** What the request log says, through the app's own logger: secrets in URLs and headers never get there. */
describeEachDialect('request logging', (db) => {
  let app: App;
  const log = capturingLogger();

  beforeAll(async () => {
    app = await buildTestApp(db().handle, { logger: log.logger });
  });

  afterAll(async () => {
    await app.close();
  });

  it('logs requests without secret query values, cookies or Authorization headers', async () => {
    const response = await app.inject({
      url: '/healthz?token=abc123&access_token=def456&page=2',
      headers: { cookie: 'service_session=cookie-value-789', authorization: 'Bearer auth-value-012' },
    });
    expect(response.statusCode).toBe(200);

    const requestLines = log.lines().filter((line) => line.reqId === response.headers['x-request-id']);
    expect(requestLines.length).toBeGreaterThan(0);
    const loggedUrl = '/healthz?token=[redacted]&access_token=[redacted]&page=2';
    expect(requestLines).toContainEqual(expect.objectContaining({ req: expect.objectContaining({ url: loggedUrl }) }));
    for (const secret of ['abc123', 'def456', 'cookie-value-789', 'auth-value-012']) {
      expect(log.text()).not.toContain(secret);
    }
  });
});
