import { describe, expect, it } from 'vitest';
import { MAX_PRICE as SERVER_MAX_PRICE } from '../../trading/trading.schema';
import { equityDraft, optionsDraft } from '../../trading/order-drafts';
import type { OptionStructure, Order, Portfolio } from './types';
import { breakevensText, netPriceText, orderPrice, orderWhat, placedSentence, riskAmount, settlementText, structureExpiry, structureLegs, unrealizedTotal } from './order-words';
import { clockTime, estimateText, fillWhen, quoteText } from './price-words';
import { BLANK_TICKET, checkTicket, complianceRequestOf, equityOrderBody, MAX_PRICE, newClientOrderId, optionsOrderBody, type TicketInputs } from './ticket-inputs';

const LEGS = [
  { symbol: 'SPY261218P00400000', side: 'sell' as const },
  { symbol: 'SPY261218P00390000', side: 'buy' as const },
];
const equity: TicketInputs = { ...BLANK_TICKET, strategy_id: '7', symbol: 'spx ', qty: '10' };
const options: TicketInputs = { ...BLANK_TICKET, kind: 'options', strategy_id: '7', symbol: 'SPY', qty: '2', legs: [...LEGS, { symbol: '', side: 'sell' }], net_price: '1.25', net: 'credit' };

const order = (fields: Partial<Order>): Order => ({
  id: '00000000-0000-4000-8000-000000000000',
  kind: 'equity',
  symbol: 'SPX',
  underlying: null,
  side: 'buy',
  qty: 10,
  order_type: 'market',
  limit_price: null,
  legs: null,
  status: 'filled',
  fill_price: 2874.56,
  filled_at: '2026-01-01T00:00:00.000Z',
  fill_source: 'stored_close',
  price_at: '2020-04-17',
  strategy_id: null,
  compliance_checked: null,
  compliance_compliant: null,
  reject_reason: null,
  violations: null,
  client_order_id: null,
  settlement: null,
  created_at: '2026-01-01T00:00:00.000Z',
  ...fields,
});

describe('the order ticket', () => {
  it('checks what the server would refuse, beside each field', () => {
    expect(checkTicket(BLANK_TICKET)).toEqual({ symbol: 'Enter the ticker to trade, such as SPX.', qty: 'Enter a whole number of shares, 1 or more.' });
    expect(checkTicket({ ...equity, qty: '1.5' })).toHaveProperty('qty');
    expect(checkTicket({ ...equity, qty: '1,000' })).toEqual({});
    expect(checkTicket({ ...equity, order_type: 'limit' })).toEqual({ limit_price: 'A limit order needs its limit price.' });
    expect(checkTicket({ ...equity, order_type: 'limit', limit_price: '0' })).toHaveProperty('limit_price');
    expect(checkTicket({ ...equity, order_type: 'limit', limit_price: '$5' })).toHaveProperty('limit_price');
    expect(checkTicket(options)).toEqual({});
    expect(checkTicket({ ...options, legs: [{ symbol: 'SPY 400 put', side: 'sell' }] })).toEqual({ 'legs.0.symbol': 'Not an OCC option symbol: SPY261218C00450000 is the form.' });
    expect(checkTicket({ ...options, legs: [] })).toHaveProperty('legs');
    expect(checkTicket({ ...options, net_price: '' })).toHaveProperty('net_price');
  });

  it('builds the order bodies the routes take', () => {
    expect(equityOrderBody(equity)).toEqual({ symbol: 'SPX', side: 'buy', qty: 10, order_type: 'market', strategy_id: 7 });
    expect(equityOrderBody({ ...equity, strategy_id: '', side: 'sell', order_type: 'limit', limit_price: '1,000.5' })).toEqual({
      symbol: 'SPX',
      side: 'sell',
      qty: 10,
      order_type: 'limit',
      limit_price: 1000.5,
    });
    expect(optionsOrderBody(options)).toEqual({
      underlying: 'SPY',
      legs: LEGS.map((leg) => ({ ...leg, ratio: 1 })),
      qty: 2,
      net_price: -1.25,
      strategy_id: 7,
    });
    expect(optionsOrderBody({ ...options, net: 'debit' }).net_price).toBe(1.25);
  });

  it('checks compliance exactly as enforcement will judge the order (the server’s own drafts)', () => {
    for (const ticket of [equity, { ...equity, side: 'sell' as const, order_type: 'limit' as const, limit_price: '2500' }]) {
      expect(complianceRequestOf(ticket)).toEqual(equityDraft(equityOrderBody(ticket)).compliance);
    }
    for (const ticket of [options, { ...options, net: 'debit' as const }]) {
      expect(complianceRequestOf(ticket)).toEqual(optionsDraft(optionsOrderBody(ticket)).compliance);
    }
    expect(complianceRequestOf({ ...equity, strategy_id: '' })).toBeUndefined();
    expect(complianceRequestOf({ ...equity, qty: '' })).toBeUndefined();
  });

  it('copies the server’s price limit, and makes idempotency keys the route takes', () => {
    expect(MAX_PRICE).toBe(SERVER_MAX_PRICE);
    const keys = new Set(Array.from({ length: 50 }, newClientOrderId));
    expect(keys.size).toBe(50);
    for (const key of keys) expect(key.length).toBeGreaterThanOrEqual(1), expect(key.length).toBeLessThanOrEqual(64);
  });
});

describe('orders and the portfolio in words', () => {
  it('says what was placed', () => {
    expect(placedSentence(order({}))).toBe('Bought 10 SPX at $2,874.56, filled at the close of 2020-04-17.');
    expect(placedSentence(order({ fill_source: null, price_at: null }))).toBe('Bought 10 SPX at $2,874.56.');
    const delayed = order({ side: 'sell', fill_price: 101.37, fill_source: 'delayed_quote', price_at: '2026-03-10T14:58:00.000Z' });
    expect(placedSentence(delayed)).toBe(`Sold 10 SPX at $101.37, filled at ${clockTime('2026-03-10T14:58:00.000Z')} (delayed).`);
    expect(clockTime('2026-03-10T14:58:00.000Z')).toMatch(/^\d\d:58$/);
    expect(placedSentence(order({ status: 'accepted', order_type: 'limit', limit_price: 100, fill_price: null }))).toMatch(/^Limit buy of 10 SPX at \$100\.00 is resting/);
    const condor = order({ kind: 'options', symbol: null, underlying: 'SPY', side: 'sell', qty: 2, order_type: 'limit', limit_price: -1.25, fill_price: -1.25, legs: LEGS.map((leg) => ({ ...leg, ratio: 1 })) });
    expect(placedSentence(condor)).toBe('Filled the 2 × SPY options order at a net credit of $1.25 a share.');
    expect(orderWhat(condor)).toBe('2 × SPY: sell SPY261218P00400000, buy SPY261218P00390000');
    expect(orderPrice(condor)).toBe('$1.25 credit');
    expect(orderPrice(order({ status: 'accepted', order_type: 'limit', limit_price: 100, fill_price: null }))).toBe('limit $100.00');
    expect(orderPrice(order({ status: 'rejected', fill_price: null }))).toBe('—');
  });

  it('says a settlement at expiry is one, and at what close; a trade is not', () => {
    const settled = order({ kind: 'options', symbol: null, underlying: 'SPY', side: 'sell', qty: 2, fill_price: -1.21505, legs: [{ symbol: 'SPY260320C00440000', side: 'sell', ratio: 1 }] });
    expect(settlementText({ ...settled, settlement: { expiry: '2026-03-20', underlying_close: 441.21505, close_date: '2026-03-20' } })).toBe(
      'Settled at expiry (2026-03-20) on the close of 2026-03-20, $441.22',
    );
    expect(settlementText(settled)).toBeNull();
  });

  it('says an options structure in words: legs by strike, expiry, the price paid, risk (unlimited when null), breakevens', () => {
    const structure: OptionStructure = {
      id: '00000000-0000-4000-8000-000000000001',
      underlying: 'SPY',
      legs: [
        { symbol: 'SPY261218P00400000', side: 'sell', ratio: 1, right: 'put', strike: 400, expiry: '2026-12-18' },
        { symbol: 'SPY261218P00390500', side: 'buy', ratio: 2, right: 'put', strike: 390.5, expiry: '2026-12-18' },
      ],
      qty: 2,
      net_price: -1.25,
      opened_at: '2026-01-01T00:00:00.000Z',
      awaiting_settlement: false,
      max_loss: null,
      max_gain: 250,
      breakevens: [398.75, 402],
    };
    expect(structureLegs(structure)).toBe('Sell SPY 400 put, buy 2 × SPY 390.5 put');
    expect(structureExpiry(structure)).toBe('2026-12-18');
    expect(structureExpiry({ ...structure, legs: [structure.legs[0]!, { ...structure.legs[1]!, expiry: '2027-01-15' }] })).toBe('2026-12-18, 2027-01-15');
    expect(structureExpiry({ ...structure, awaiting_settlement: true })).toBe('2026-12-18: expired, awaiting settlement at the expiry’s close');
    expect(netPriceText(structure.net_price)).toBe('$1.25 credit');
    expect(netPriceText(4)).toBe('$4.00 debit');
    expect([riskAmount(structure.max_loss), riskAmount(structure.max_gain)]).toEqual(['Unlimited', '$250.00']);
    expect(breakevensText(structure)).toBe('$398.75 and $402.00');
    expect(breakevensText({ breakevens: [] })).toBe('—');
  });

  it('totals the unrealized P&L of the priced positions', () => {
    const portfolio = (pnls: (number | null)[]): Portfolio => ({
      cash: 0,
      reserved_cash: 0,
      equity: 0,
      trade_cooldown_until: null,
      realized_pnl: 0,
      options_positions: [],
      options_structures: [],
      positions: pnls.map((pnl, index) => ({ symbol: `S${index}`, qty: 1, avg_price: 1, last_close: null, market_value: null, unrealized_pnl: pnl })),
    });
    expect(unrealizedTotal(portfolio([]))).toBe(0);
    expect(unrealizedTotal(portfolio([null]))).toBeNull();
    expect(unrealizedTotal(portfolio([0.1, 0.2, null, -5]))).toBe(-4.7);
  });
});

describe('prices and where they came from', () => {
  const quote = { symbol: 'ACME', price: 101.37, source: 'delayed_quote' as const, at: '2026-03-10T14:58:00.000Z', provider: 'yahoo' as const, market_closed: false };
  const close = { symbol: 'SPX', price: 2874.56, source: 'stored_close' as const, at: '2020-04-17', provider: null, market_closed: false };

  it('says each fill source in words', () => {
    expect(fillWhen({ fill_source: 'stored_close', price_at: '2020-04-17' })).toBe('filled at the close of 2020-04-17');
    expect(fillWhen({ fill_source: 'delayed_quote', price_at: '2026-03-10T14:58:00.000Z' })).toBe(`filled at ${clockTime('2026-03-10T14:58:00.000Z')} (delayed)`);
    expect(fillWhen({ fill_source: 'resting_bar', price_at: '2026-03-11' })).toBe('filled on the bar of 2026-03-11, which reached the limit');
    expect(fillWhen({ fill_source: 'expiry_close', price_at: '2026-03-20' })).toBeNull();
    expect(fillWhen({ fill_source: null, price_at: null })).toBeNull();
  });

  it('says the quote with its time and source', () => {
    expect(quoteText(quote)).toBe(`$101.37 at ${clockTime(quote.at)} (delayed, Yahoo Finance)`);
    expect(quoteText(close)).toBe('$2,874.56, the close of 2020-04-17');
    expect(quoteText({ ...close, market_closed: true })).toBe('$2,874.56, the close of 2020-04-17 (the market is closed)');
  });

  it('estimates the cost and the cash after to the cent, as the server books it', () => {
    expect(estimateText(quote, { side: 'buy', qty: 3, limit: null, available: 100000 })).toBe('Estimated cost: 3 × $101.37 = $304.11. Cash available after: $99,695.89.');
    // 0.1 + 0.2 in doubles is not 0.3; cents from the decimal form are: 3 × 1.005 = 3.015 → $3.02 (half away from zero).
    expect(estimateText({ ...quote, price: 1.005 }, { side: 'sell', qty: 3, limit: null, available: 0.1 })).toBe('Estimated proceeds: 3 × $1.01 = $3.02. Cash available after: $3.12.');
    expect(estimateText(quote, { side: 'buy', qty: 1000, limit: null, available: 50000 })).toMatch(/= \$101,370\.00\. Cash available after: -\$51,370\.00\. That is more than the \$50,000\.00 available/);
    expect(estimateText(quote, { side: 'buy', qty: 2, limit: 96, available: 1000 })).toBe(
      'The limit is not reached at this price: the order rests until a newer bar reaches $96.00. It holds 2 × $96.00 = $192.00 of your cash meanwhile.',
    );
    expect(estimateText(quote, { side: 'buy', qty: 2, limit: 110, available: null })).toBe('Estimated cost: 2 × $101.37 = $202.74.');
  });
});
