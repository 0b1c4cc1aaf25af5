import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { createMarketData } from '../../src/market/market-data.service.js';
import { marketDataProviderFor } from '../../src/market/market-data-provider.js';
import { fillRestingOrders } from '../../src/trading/resting-orders.service.js';
import { buildTestApp, testConfig } from '../helpers/app.js';
import { ManualClock } from '../helpers/clock.js';
import { describeEachDialect } from '../helpers/dialects.js';
import { alpacaBar, startFakeAlpaca } from '../market/fake-alpaca.js';
import { libraryUser } from '../strategies/library-kit.js';
import { bar, ORDERS, placeOrder, seedBars } from './trading-kit.js';

describeEachDialect('trade window: a provider fetch fills resting limits', (database, dialect) => {
  const db = () => database().handle.db;
  const clock = new ManualClock('2026-03-10T15:00:00.000Z');
  let app: App;
  let fake: Awaited<ReturnType<typeof startFakeAlpaca>>;

  beforeAll(async () => {
    app = await buildTestApp(database().handle, { clock });
    fake = await startFakeAlpaca();
  });
  afterAll(async () => {
    await app.close();
    await fake.close();
  });

  it('bars fetched from the provider and stored tell the listener, which fills a resting buy reached by the new low', async () => {
    const user = await libraryUser(app, db());
    await seedBars(db(), clock, 'FFF', [bar('2026-03-05', 100)], 'alpaca');
    const resting = (await placeOrder(user.client, { symbol: 'FFF', side: 'buy', qty: 5, order_type: 'limit', limit_price: 96 })).json();
    expect(resting.status).toBe('accepted');
    // alpacaBar: open close − 1, low close − 2. Close 97: open 96, low 95 → fills at min(96, 96) = 96.
    fake.answer(() => ({ status: 200, body: { bars: [alpacaBar('2026-03-06', 97)], symbol: 'FFF', next_page_token: null } }));
    // The market data as src/app.ts assembles it: fetched bars are announced to the trade window.
    const marketData = createMarketData({
      db: db(),
      clock,
      logger: app.log,
      provider: marketDataProviderFor(
        testConfig({ MARKET_DATA_PROVIDER: 'alpaca', ALPACA_KEY_ID: 'AKTEST', ALPACA_SECRET_KEY: 'shh', ALPACA_DATA_URL: fake.url, ALPACA_TIMEOUT_MS: '2000' }),
        { clock, logger: app.log },
      ),
      onBarsStored: async (symbol) => void (await fillRestingOrders({ db: db(), dialect, clock }, symbol)),
    });
    await marketData.barsFor('FFF', '2026-03-01', '2026-03-09', 'delayed_sip');
    expect(fake.seen.length).toBeGreaterThan(0);
    expect((await user.client.get(`${ORDERS}/${resting.id}`)).json()).toMatchObject({ status: 'filled', fill_price: 96 });
  });
});
