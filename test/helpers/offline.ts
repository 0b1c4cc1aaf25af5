/**
 * What every app or `tradelab` process a test or bench starts is told about market data unless it points the app at
 * a local fake: no provider, so that nothing reaches Yahoo (the default provider when no Alpaca keys are set).
 */
export const OFFLINE = { MARKET_DATA_PROVIDER: 'none' } as const;
