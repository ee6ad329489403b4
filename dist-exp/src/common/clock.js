/**
 * The only place that reads the time: every rule that depends on "now" (token and customer
 * timestamps, idempotency expiry, the ledger, webhook backoff, give-up, leases, secret rotation
 * windows) takes it from the injectable `Clock`. Tests inject a clock they drive. ESLint forbids
 * `new Date()` and `Date.now()` everywhere else (eslint.config.js).
 */
export class Clock {
}
export class SystemClock extends Clock {
    now() {
        return new Date();
    }
}
let ambient = new SystemClock();
/**
 * For rules with no injector (class-validator decorators and the declarative field rules, e.g.
 * "a birth date is not in the future"): the application's Clock, bound by `ConfigModule.forRoot`.
 */
export function ambientNow() {
    return ambient.now();
}
export function bindAmbientClock(clock) {
    ambient = clock;
}
//# sourceMappingURL=clock.js.map