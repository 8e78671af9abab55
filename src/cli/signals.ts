/**
 * Resolves at the first SIGINT or SIGTERM (Ctrl-C, a service manager's stop) and, with
 * `orDisconnect`, when the parent of this process closes its channel (a child of `tradeloop worker
 * --concurrency N`: its parent is gone). The listeners are removed once it resolves.
 */
export function untilStopped(options: { readonly orDisconnect?: boolean } = {}): Promise<void> {
  return new Promise((resolve) => {
    const disconnect = options.orDisconnect === true && typeof process.send === 'function';
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      if (disconnect) process.off('disconnect', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    if (disconnect) process.on('disconnect', stop);
  });
}
