/**
 * The trade window API as the web app reads it (docs/trading.md): the server's own TypeBox
 * schemas, so the Trade page and the routes cannot drift apart. Type-only imports: nothing of the server is bundled.
 */
import type { Static } from 'typebox';
import type {
  OptionsPreview as OptionsPreviewSchema,
  Order as OrderSchema,
  OrderRefusal as OrderRefusalSchema,
  PlaceOptionsOrderBody as PlaceOptionsOrderBodySchema,
  PlaceOrderBody as PlaceOrderBodySchema,
  Portfolio as PortfolioSchema,
  PriceQuote as PriceQuoteSchema,
} from '../../trading/trading.schema';

/** `POST /api/trade-window/orders` body. */
export type PlaceOrderBody = Static<typeof PlaceOrderBodySchema>;
/** `POST /api/trade-window/options-orders` body. */
export type PlaceOptionsOrderBody = Static<typeof PlaceOptionsOrderBodySchema>;
/** One order, as every order route answers it. */
export type Order = Static<typeof OrderSchema>;
export type OrderStatus = Order['status'];
/** `GET /api/trade-window/quote?symbol=`: the price a market order would fill at now. */
export type PriceQuote = Static<typeof PriceQuoteSchema>;
/** `GET /api/trade-window/portfolio` and the reset's answer. */
export type Portfolio = Static<typeof PortfolioSchema>;
/** One open options position, as the structure it was traded as. */
export type OptionStructure = Portfolio['options_structures'][number];
/** `POST /api/trade-window/options-orders/preview`: the modeled price, and the order's maximum loss and gain (null: unlimited) and breakevens at it. */
export type OptionsPreview = Static<typeof OptionsPreviewSchema>;
/** A refused placement: `{error, message}`, `violations` for compliance, `until` for the cooldown. */
export type OrderRefusal = Static<typeof OrderRefusalSchema>;
