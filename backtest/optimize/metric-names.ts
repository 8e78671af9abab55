/**
 * The metrics an optimization ranks by (the command's --metric), each with its key among a run's
 * metrics. Apart from optimize.ts, so `tradeloop optimize --help` lists them without loading it.
 */
export const OPTIMIZE_METRICS = {
  sharpe: 'sharpe',
  sortino: 'sortino',
  return: 'return_pct',
  cagr: 'cagr_pct',
  max_drawdown: 'max_drawdown_pct',
  profit_factor: 'profit_factor',
  win_rate: 'win_rate_pct',
  final_equity: 'final_equity',
} as const;
export type OptimizeMetric = keyof typeof OPTIMIZE_METRICS;
