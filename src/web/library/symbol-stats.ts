/** Per-symbol statistics of a library backtest: the server's pure helper, bundled as it is (no Node imports). */
export { statsBySymbol, type SymbolTradeStats } from '../../engine/replay/trade-stats';
