import type { Command } from 'commander';

/**
 * The price-data flags every replaying command takes (backtest, verify, optimize): a file, or a
 * market's cached prices. Kept apart from the commands' code, so `tradeloop verify --help` loads no
 * backtest to list them.
 */
export function addDataOptions(command: Command, perMarket = false): Command {
  const data = 'price file: CSV (timestamp,price or OHLCV), List Historical Prices JSON, or a stream recording of a live run';
  return (
    perMarket
      ? command.option(
          '--data <file>',
          `${data}; with a config, one per market: --data BTCUSD=btc.csv --data ETHUSD=eth.csv`,
          (v: string, prev: string[] | undefined) => [...(prev ?? []), v],
        )
      : command.option('--data <file>', data)
  )
    .option(
      '--price-column <name>',
      'with a --data CSV: the column that holds the price (e.g. close, when the file also has average_price or vwap)',
    )
    .option('--market <market>', 'replay the cached prices of this market (see tradeloop history fetch)')
    .option('--from <time>', 'with --market: first time, e.g. 2024-01-01')
    .option('--to <time>', 'with --market: last time')
    .option('--increment <name>', 'with --market: increment of the cached prices', 'ONE_HOUR')
    .option('--data-dir <dir>', 'folder of cached prices', 'data/history');
}
