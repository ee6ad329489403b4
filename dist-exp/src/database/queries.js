import { QueryFailedError } from 'typeorm';
const LOCK_MODES = { share: 'pessimistic_read', update: 'pessimistic_write' };
/** The find option of a row lock (none when `lock` is undefined). */
export function lockOption(lock) {
    return lock ? { lock: { mode: LOCK_MODES[lock] } } : {};
}
/**
 * The platform's row matching `where`, or `notFound()` thrown (another platform's row is "not
 * found" too, never 403). `lock` takes the row FOR SHARE / FOR UPDATE: pass the transaction's
 * EntityManager.
 */
export async function findOwned(m, entity, platformId, where, notFound, lock) {
    const row = await m.findOne(entity, {
        where: { ...where, platformId },
        ...lockOption(lock),
    });
    if (!row)
        throw notFound();
    return row;
}
/** PostgreSQL's unique_violation. */
export const UNIQUE_VIOLATION = '23505';
/**
 * Maps the unique violation of one of the named indexes (or constraints) to its 409; any other
 * error gives null (rethrow it). Indexes enforce uniqueness, so racing inserts get exactly one winner.
 */
export function conflictFor(error, byConstraint) {
    if (!(error instanceof QueryFailedError))
        return null;
    const driver = error.driverError;
    if (driver.code !== UNIQUE_VIOLATION || driver.constraint === undefined)
        return null;
    return Object.hasOwn(byConstraint, driver.constraint) ? byConstraint[driver.constraint]() : null;
}
//# sourceMappingURL=queries.js.map