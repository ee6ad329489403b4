/**
 * For a worker that claims business-time due rows (src/common/schedules.ts): the SQL expression of
 * the row's platform's time, from a real-time parameter. With SANDBOX=true that is the parameter
 * plus the platform's test-clock offset (`sandbox_clocks`, none for a platform that never
 * advanced); with SANDBOX=false the parameter itself (a row in `sandbox_clocks` then changes
 * nothing, as everywhere else).
 *
 * A worker serves no request, so `Clock` there is real time: it passes `RealClock.now()` as the
 * parameter and compares the due column with this expression, e.g.
 * `WHERE d.decide_by <= ${platformTimeSql(config.SANDBOX, 'd.platform_id', '$1')}`, so a row set
 * from the platform's clock falls due on the platform's clock, at once after an advance past it.
 */
export function platformTimeSql(sandbox: boolean, platformIdColumn: string, realNowParameter: string): string {
  if (!sandbox) return `${realNowParameter}::timestamptz`;
  return `(${realNowParameter}::timestamptz + COALESCE((SELECT sc.offset_ms FROM sandbox_clocks sc WHERE sc.platform_id = ${platformIdColumn}), 0) * interval '1 millisecond')`;
}
