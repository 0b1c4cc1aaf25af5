import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './platform/config.js';
import { systemClock, type Clock } from './platform/clock.js';
import { databaseOptions, migrateToLatest, openDatabase, type DatabaseHandle } from './platform/db/database.js';
import { createLogger } from './platform/logger.js';
import { assemblePlatform, type Platform } from './platform/platform.js';
import { parseJsonBodies, refuseUnrepresentableValues, requestValidation } from './platform/http/validation.js';
import { clientErrorHandler, frameworkErrorHandler, registerErrorHandling } from './platform/http/error-handler.js';
import { registerOriginCheck } from './platform/http/origin-check.js';
import { httpServerOptions, registerHostHeaderCheck } from './platform/http/host-header.js';
import { countRefusedRequests } from './platform/http/rate-limit.js';
import { trackAllowedMethods } from './platform/http/allowed-methods.js';
import { registerPrivateReplies, registerSecurityHeaders, securityHeadersSetter, staticSecurityHeaders } from './platform/http/security-headers.js';
import { registerOpenApi } from './platform/http/openapi.js';
import { registerWebApp } from './platform/http/web-app.js';
import { connectionTimeoutOptions } from './platform/http/connection-timeouts.js';
import { trackRequestsInFlight } from './platform/http/requests-in-flight.js';
import { refuseRequestsWhileClosing } from './platform/http/closing-refusal.js';
import { healthRoutes } from './health/health.routes.js';
import { authDeps, registerAuth } from './auth/auth.plugin.js';
import { configuredMarketData } from './configured-market-data.js';
import { barsRoutes } from './market/bars.routes.js';
import { symbolsRoutes } from './market/symbols.routes.js';
import { createSymbolSearch } from './market/symbols.service.js';
import { dataFeedsRoutes } from './market/data-feeds.routes.js';
import { templatesRoutes } from './backtest/templates.routes.js';
import { backtestRoutes } from './backtest/backtest.routes.js';
import { ResponseCache } from './backtest/response-cache.js';
import { sweepRoutes } from './backtest/sweep.routes.js';
import { monteCarloRoutes } from './backtest/monte-carlo.routes.js';
import { SweepPool, type SweepPoolOptions } from './backtest/sweep-pool.js';
import { libraryBacktestRoutes } from './backtest/library-backtest.routes.js';
import { strategiesRoutes } from './strategies/strategies.routes.js';
import { complianceRoutes } from './compliance/compliance.routes.js';
import { tradeWindowRoutes } from './trading/trade-window.routes.js';
import { cancelRestingOrdersOf } from './trading/order-book.service.js';
import { adminRoutes } from './admin/admin.routes.js';
import { privacyRoutes } from './privacy/privacy.routes.js';

export interface AppDependencies {
  /** An open database; when omitted the app opens (and on close, closes) the one `config` names. */
  readonly database?: DatabaseHandle;
  readonly clock?: Clock;
  /** Logger level override for tests. */
  readonly logLevel?: Config['logLevel'];
  /** A logger to use instead of the one `config` describes (tests capture lines with it). */
  readonly logger?: FastifyBaseLogger;
  /** The built web app's folder; by default `dist/web` of this checkout. */
  readonly webRoot?: string;
  /** The sweep threads' size and queue; by default one thread per core and a queue of threads × 4 chunks. */
  readonly sweepPool?: SweepPoolOptions;
}

export type App = FastifyInstance & { readonly platform: Platform };

/**
 * Builds the whole HTTP application, ready for `inject` or `listen`. Migrates the database first,
 * so a fresh SQLite file or PostgreSQL schema is usable at once.
 */
export async function buildApp(config: Config, deps: AppDependencies = {}): Promise<App> {
  const logger = deps.logger ?? createLogger({ logLevel: deps.logLevel ?? config.logLevel });
  const ownsDatabase = deps.database === undefined;
  const database = deps.database ?? openDatabase(databaseOptions(config));
  await migrateToLatest(database);

  const timeouts = connectionTimeoutOptions(config.timeouts);
  const app = Fastify({
    loggerInstance: logger,
    bodyLimit: config.bodyLimitBytes,
    // A client that stalls mid-request is cut off rather than holding a connection (and a file descriptor) forever.
    ...timeouts,
    genReqId: () => randomUUID(),
    // Behind a load balancer, the client address (rate limits, /24 prefixes) comes from X-Forwarded-For.
    trustProxy: config.trustProxy === false ? false : [...config.trustProxy],
    schemaController: requestValidation,
    // Requests refused before routing (a malformed URL) answer in our error shape too.
    frameworkErrors: frameworkErrorHandler(securityHeadersSetter(config.publicOrigin)),
    // And so do requests Node's HTTP parser refuses before Fastify sees them (400, 408, 431).
    clientErrorHandler: clientErrorHandler(staticSecurityHeaders(config.publicOrigin)),
    // Node's own server options: the timeout checks, and no Host check of Node's (ours answers in the error shape).
    http: { ...timeouts.http, ...httpServerOptions },
    // Requests arriving while closing are refused by refuseRequestsWhileClosing, in our error shape.
    return503OnClosing: false,
  }).withTypeProvider<TypeBoxTypeProvider>();

  const platform = assemblePlatform({ config, database, clock: deps.clock ?? systemClock, logger: app.log });
  app.decorate('platform', platform);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  // The sweep threads start at the first sweep and end with the app.
  const sweeps = new SweepPool(deps.sweepPool);
  const inFlight = trackRequestsInFlight(app);
  app.addHook('onClose', async () => {
    // Handlers still running (their clients gone, or cut off by the shutdown deadline) finish before the database
    // closes, and before the sweep threads end (ending them fails the sweeps they run).
    await inFlight.settled();
    await sweeps.close();
    await platform.close();
    if (ownsDatabase) await database.close();
  });

  parseJsonBodies(app);
  refuseUnrepresentableValues(app);
  registerErrorHandling(app);
  // Before any route: refused requests count toward the limits of the route they were sent to.
  countRefusedRequests(app);
  // Before any route too: a wrong method on a known path is a 405 with Allow, not a 404.
  const allowedMethods = trackAllowedMethods(app);
  // Headers first, so that refusals carry them too.
  await registerSecurityHeaders(app, config.publicOrigin);
  registerPrivateReplies(app);
  refuseRequestsWhileClosing(app);
  registerHostHeaderCheck(app);
  registerOriginCheck(app, config.publicOrigin);
  await registerOpenApi(app, config.publicOrigin);

  await app.register(healthRoutes(platform.db));
  // Before every feature that uses requireSession / requireRole.
  // A recovery cancels what rested in the account: auth announces inside its transaction, trading cancels.
  await registerAuth(app, platform, {
    onCredentialsReset: async (trx, userId) => (await cancelRestingOrdersOf(trx, platform, userId, 'credentials_reset')).length,
  });
  const marketData = configuredMarketData(platform, app.log);
  await app.register(symbolsRoutes(createSymbolSearch({ db: platform.db, clock: platform.clock, logger: app.log, provider: marketData.provider })));
  await app.register(barsRoutes(marketData.cache));
  await app.register(dataFeedsRoutes(marketData.provider?.realTime === true));
  await app.register(templatesRoutes());
  await app.register(strategiesRoutes(platform));
  await app.register(complianceRoutes(platform));
  await app.register(tradeWindowRoutes({ ...platform, prices: marketData }));
  // Under AUTH_V1=off every /api/admin path already answers 404 (registerAuth).
  if (config.authV1 !== 'off') await app.register(adminRoutes(authDeps(platform)));
  // Data rights exist only with accounts (AUTH_V1=off answers 404 under /api/gdpr).
  if (config.authV1 !== 'off') await app.register(privacyRoutes(authDeps(platform)), { prefix: '/api/gdpr' });
  // One bounded cache of serialized backtest bodies, legacy and library alike.
  const responses = new ResponseCache(16 * 1024 * 1024);
  await app.register(backtestRoutes(platform, { marketData, responses }));
  await app.register(sweepRoutes(platform, { marketData, responses, sweeps }));
  await app.register(monteCarloRoutes(platform, { marketData, responses, sweeps }));
  await app.register(libraryBacktestRoutes(platform, { db: platform.db, marketData, responses, optionsRiskFreeRate: platform.config.optionsRiskFreeRate }));
  await registerWebApp(app, deps.webRoot, allowedMethods);

  return app as unknown as App;
}
