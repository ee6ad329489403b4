/**
 * Route order must not depend on module import order: Express tries routes in registration order,
 * so `GET /customers/{customerId}` registered before `GET /customers/kyc-link` would capture it.
 * After Nest has registered every route, `sortRoutes` reorders each run of consecutive route
 * layers (middleware stays where it is) so that, at the first segment where two paths differ in
 * kind, a literal segment comes before a parameter, and a parameter before a wildcard. Paths with
 * literals in the same place keep a fixed (alphabetical) order; nothing else moves.
 */
const segmentsOf = (path) => path.split('/').filter((s) => s !== '');
/** 0 literal, 1 parameter (`:id`), 2 wildcard (`*path`, `{*path}`). */
export function segmentRank(segment) {
    if (segment.startsWith('*') || segment.startsWith('{*'))
        return 2;
    return segment.includes(':') ? 1 : 0;
}
/** Orders two route paths: the more specific first (see the module comment). */
export function compareRoutePaths(a, b) {
    const sa = segmentsOf(a);
    const sb = segmentsOf(b);
    for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
        const rank = segmentRank(sa[i]) - segmentRank(sb[i]);
        if (rank !== 0)
            return rank;
        if (segmentRank(sa[i]) === 0 && sa[i] !== sb[i])
            return sa[i] < sb[i] ? -1 : 1;
    }
    return sa.length - sb.length;
}
const isRoute = (layer) => typeof layer.route?.path === 'string';
/**
 * Replaces each run of consecutive route layers of `stack` (middleware stays where it is) with
 * what `replace` makes of it.
 */
function replaceRouteRuns(stack, replace) {
    let start = 0;
    while (start < stack.length) {
        if (!isRoute(stack[start])) {
            start++;
            continue;
        }
        let end = start;
        while (end < stack.length && isRoute(stack[end]))
            end++;
        const replacement = replace(stack.slice(start, end));
        stack.splice(start, end - start, ...replacement);
        start += replacement.length;
    }
}
/** Sorts each run of consecutive route layers of the Express app's router (stable). */
export function sortRoutes(app) {
    replaceRouteRuns(app.router.stack, (run) => run.sort((x, y) => compareRoutePaths(x.route.path, y.route.path)));
}
/** Every route, in the order Express tries them. */
export function listRoutes(app) {
    const layers = app.router.stack.flatMap((layer) => layer.routeRun ?? [layer]);
    return layers.filter(isRoute).map((layer) => ({
        path: layer.route.path,
        methods: Object.keys(layer.route.methods)
            .filter((m) => layer.route.methods[m])
            .map((m) => m.toUpperCase()),
    }));
}
/**
 * Pairs where an earlier route captures a later one: same method, and the earlier path matches
 * every request the later one's literal segments name (a parameter where the later has a literal).
 */
export function shadowedRoutes(routes) {
    const found = [];
    routes.forEach((later, j) => {
        const sl = segmentsOf(later.path);
        for (const earlier of routes.slice(0, j)) {
            const methods = later.methods.filter((m) => earlier.methods.includes(m) || earlier.methods.includes('_ALL'));
            if (methods.length === 0)
                continue;
            const se = segmentsOf(earlier.path);
            let captures = true;
            let widens = false;
            for (let i = 0; i < Math.max(se.length, sl.length) && captures; i++) {
                const e = se[i];
                const l = sl[i];
                if (e !== undefined && segmentRank(e) === 2) {
                    widens ||= l === undefined || segmentRank(l) < 2;
                    break; // a wildcard takes the rest
                }
                if (e === undefined || l === undefined)
                    captures = false;
                else if (segmentRank(e) === 1)
                    widens ||= segmentRank(l) === 0;
                else if (segmentRank(l) !== 0 || e !== l)
                    captures = false;
            }
            if (captures && widens)
                found.push({ shadowed: `${methods.join(',')} ${later.path}`, by: `${methods.join(',')} ${earlier.path}` });
        }
    });
    return found;
}
/** A literal path segment (no parameter, wildcard, group or pattern syntax). */
const LITERAL = /^[A-Za-z0-9._~-]+$/;
/**
 * The dispatch key of a route path: its first two segments, lowercased (Express matches paths
 * case-insensitively), or null when either is not a literal (the route may match any key).
 */
export function routeKey(path) {
    const head = segmentsOf(path).slice(0, 2);
    return head.every((s) => LITERAL.test(s)) ? head.join('/').toLowerCase() : null;
}
/** A request path's dispatch key: its first two non-empty segments, lowercased. */
export function requestKey(path) {
    let key = '';
    let count = 0;
    let i = 0;
    while (i < path.length && count < 2) {
        while (i < path.length && path.charCodeAt(i) === 0x2f)
            i++; // '/'
        const start = i;
        while (i < path.length && path.charCodeAt(i) !== 0x2f)
            i++;
        if (i > start) {
            key += (count ? '/' : '') + path.slice(start, i);
            count++;
        }
    }
    return key.toLowerCase();
}
/**
 * Express tries a request against every route layer in turn (a regular expression each), so the
 * routes far down a list of ~150 cost a hundred failed matches per request. After `sortRoutes`,
 * this replaces each run of consecutive route layers with one dispatch layer holding, per key
 * (the first two path segments: version and area, e.g. `2025-10-13/cards`), a router with just
 * that key's routes plus any route whose key is not literal, in their sorted order. A request can
 * only match a route whose key equals its own, so it is tried against the same routes in the same
 * order as before, minus those that could not match. `makeRouter` is `express.Router`.
 */
export function indexRoutes(app, newRouter) {
    const makeRouter = newRouter;
    replaceRouteRuns(app.router.stack, (run) => {
        const keys = new Set(run.map((l) => routeKey(l.route.path)).filter((k) => k !== null));
        const routerOf = (key) => {
            const router = makeRouter();
            router.stack = run.filter((l) => {
                const k = routeKey(l.route.path);
                return k === null || k === key;
            });
            return router;
        };
        const byKey = new Map([...keys].map((k) => [k, routerOf(k)]));
        const others = routerOf(null);
        const holder = makeRouter();
        // A router answers an OPTIONS request its routes match by path with an `Allow` list of their
        // methods; the app's router never got that far (the not-found handler after the routes
        // answers it), so OPTIONS goes past the run unless a route of it declares OPTIONS itself.
        const optionsRoutes = run.some((l) => l.route.methods.options || l.route.methods._all);
        holder.use((req, res, next) => {
            if (req.method === 'OPTIONS' && !optionsRoutes)
                return next();
            (byKey.get(requestKey(req.path)) ?? others).handle(req, res, next);
        });
        const dispatch = holder.stack[0];
        dispatch.routeRun = run;
        return [dispatch];
    });
}
//# sourceMappingURL=route-order.js.map