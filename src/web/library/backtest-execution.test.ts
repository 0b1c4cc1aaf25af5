import { describe, expect, it } from 'vitest';
import { DEFAULT_EXECUTION_INPUTS } from '../lab/execution-inputs';
import { checkLibraryExecution, DEFAULT_LIBRARY_EXECUTION, libraryExecutionRequest, type LibraryExecutionInputs } from './backtest-execution';

const typed = (changes: Partial<LibraryExecutionInputs['execution']>, commission = '0'): LibraryExecutionInputs => ({
  execution: { ...DEFAULT_EXECUTION_INPUTS, ...changes },
  commission_per_contract: commission,
});

describe('the library backtest request built from the form', () => {
  it('sends an equity strategy the lab’s costs, sizing and exits, and the benchmark only when one is typed', () => {
    const inputs = typed({ commission_min: '1', slippage_bps: '5', sizing_mode: 'percent_of_equity', sizing_value: '25', stop_loss_pct: '10' }, '0.65');
    expect(libraryExecutionRequest('equity_long', inputs)).toEqual({
      costs: { commission_per_share: 0, commission_pct: 0, commission_min: 1, slippage_bps: 5 },
      sizing: { mode: 'percent_of_equity', value: 0.25 },
      exits: { stop_loss_pct: -0.1, take_profit_pct: null, trailing_stop_pct: null },
    });
    expect(libraryExecutionRequest('custom', typed({ benchmark: 'spy' })).benchmark).toBe('SPY');
  });

  it('sends an options strategy only its commission per contract: never sizing, exits or share costs', () => {
    const inputs = typed({ commission_min: '1', sizing_mode: 'fixed_shares', sizing_value: '10', stop_loss_pct: '10', benchmark: 'SPY' }, '0.65');
    expect(libraryExecutionRequest('iron_condor', inputs)).toEqual({ costs: { commission_per_contract: 0.65 } });
    expect(libraryExecutionRequest('vertical_spread', DEFAULT_LIBRARY_EXECUTION)).toEqual({ costs: { commission_per_contract: 0 } });
  });

  it('checks the fields the strategy’s kind shows, and only those', () => {
    expect(checkLibraryExecution('iron_condor', typed({ slippage_bps: 'x' }, '-1'))).toEqual({ commission_per_contract: 'Enter dollars per contract, 0 or more, such as 0.65.' });
    expect(checkLibraryExecution('iron_condor', typed({}, ''))).toHaveProperty('commission_per_contract');
    expect(checkLibraryExecution('equity_short', typed({ slippage_bps: 'x' }, '-1'))).toEqual({ slippage_bps: 'Enter basis points from 0 to 1,000, such as 5.' });
  });
});
