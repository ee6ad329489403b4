import { v7 as uuidv7 } from 'uuid';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A new time-ordered UUIDv7 (generated in the app so PostgreSQL 15 and PGlite behave the same). */
export function newUuid() {
    return uuidv7();
}
/** Whether `value` is a well-formed uuid (8-4-4-4-12 hex digits). */
export function isUuid(value) {
    return UUID.test(value);
}
/** `<Type>:<uuid>`, the public form of every identifier. */
export function formatId(type, uuid) {
    return `${type}:${uuid}`;
}
/** The uuid inside `<Type>:<uuid>`, or null when the string is not an id of that type. */
export function parseId(type, id) {
    const prefix = `${type}:`;
    if (!id.startsWith(prefix))
        return null;
    const uuid = id.slice(prefix.length);
    return UUID.test(uuid) ? uuid.toLowerCase() : null;
}
export function idPattern(type) {
    return `^${type}:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`;
}
//# sourceMappingURL=ids.js.map