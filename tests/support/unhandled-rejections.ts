/**
 * Records every promise rejection nobody handled while a suite runs. In production one of these
 * killed the server (a query started inside `Promise.all([...])` whose other argument threw first);
 * the linter cannot see that shape, so the suites that fire hostile input assert there were none.
 */
export function recordUnhandledRejections(): { readonly reasons: unknown[]; stop(): void } {
  const reasons: unknown[] = [];
  const record = (reason: unknown) => reasons.push(reason);
  process.on('unhandledRejection', record);
  return { reasons, stop: () => process.off('unhandledRejection', record) };
}
