/**
 * Route order must not depend on module import order: Express tries routes in registration order,
 * so `GET /customers/{customerId}` registered before `GET /customers/kyc-link` would capture it.
 * After Nest has registered every route, `sortRoutes` reorders each run of consecutive route
 * layers (middleware stays where it is) so that, at the first segment where two paths differ in
 * kind, a literal segment comes before a parameter, and a parameter before a wildcard. Paths with
 * different literals in the same place keep a fixed order (the smaller group of routes first, then
 * alphabetical: see compareRoutePaths); nothing else moves.
 */

/*
 * `sortRoutes` reorders Express's internal router stack (`app.router.stack`: layers with
 * `route.path` and `route.methods`), as Express 5.3 (its `router` 2.3) holds it under
 * @nestjs/platform-express 12.5, which registers every route there on `app.init()`. An upgrade of
 * any of them must re-run test/e2e/routes.e2e-spec.ts, which asserts these majors, the stack's shape
 * and that no route is shadowed in the running app.
 */

/** One registered route as Express holds it. */
export interface RegisteredRoute {
  path: string;
  methods: string[];
}

interface RouteLayer {
  route?: { path: unknown; methods: Record<string, boolean> };
}

interface ExpressLike {
  router: { stack: RouteLayer[] };
}

const segmentsOf = (path: string) => path.split('/').filter((s) => s !== '');

/** 0 literal, 1 parameter (`:id`), 2 wildcard (`*path`, `{*path}`). */
export function segmentRank(segment: string): number {
  if (segment.startsWith('*') || segment.startsWith('{*')) return 2;
  return segment.includes(':') ? 1 : 0;
}

/**
 * Orders two route paths: the more specific first (see the module comment). Two different literals
 * at the first differing segment can never match the same request, so their order is free:
 * with `groupSize` (the number of routes under a literal prefix), the smaller group comes first,
 * then alphabetical. Express tries routes in turn, so a request then walks past small groups only:
 * `/healthz` is not tried against the ~150 versioned routes first, nor `GET /tokens/{id}` against
 * every area's routes.
 */
export function compareRoutePaths(a: string, b: string, groupSize?: (prefix: string) => number): number {
  const sa = segmentsOf(a);
  const sb = segmentsOf(b);
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
    const rank = segmentRank(sa[i]) - segmentRank(sb[i]);
    if (rank !== 0) return rank;
    if (segmentRank(sa[i]) === 0 && sa[i] !== sb[i]) {
      if (groupSize) {
        const size = groupSize(sa.slice(0, i + 1).join('/')) - groupSize(sb.slice(0, i + 1).join('/'));
        if (size !== 0) return size;
      }
      return sa[i] < sb[i] ? -1 : 1;
    }
  }
  return sa.length - sb.length;
}

/** How many of `paths` lie under each prefix of leading literal segments (`a`, `a/b`, ...). */
function groupSizes(paths: string[]): (prefix: string) => number {
  const sizes = new Map<string, number>();
  for (const path of paths) {
    const segments = segmentsOf(path);
    for (let i = 0; i < segments.length && segmentRank(segments[i]) === 0; i++) {
      const prefix = segments.slice(0, i + 1).join('/');
      sizes.set(prefix, (sizes.get(prefix) ?? 0) + 1);
    }
  }
  return (prefix) => sizes.get(prefix) ?? 0;
}

const isRoute = (layer: RouteLayer) => typeof layer.route?.path === 'string';

/**
 * Replaces each run of consecutive route layers of `stack` (middleware stays where it is) with
 * what `replace` makes of it.
 */
function replaceRouteRuns(stack: RouteLayer[], replace: (run: RouteLayer[]) => RouteLayer[]): void {
  let start = 0;
  while (start < stack.length) {
    if (!isRoute(stack[start])) {
      start++;
      continue;
    }
    let end = start;
    while (end < stack.length && isRoute(stack[end])) end++;
    const replacement = replace(stack.slice(start, end));
    stack.splice(start, end - start, ...replacement);
    start += replacement.length;
  }
}

/** Sorts each run of consecutive route layers of the Express app's router (stable; small groups first). */
export function sortRoutes(app: object): void {
  replaceRouteRuns((app as ExpressLike).router.stack, (run) => {
    const size = groupSizes(run.map((l) => l.route!.path as string));
    return run.sort((x, y) => compareRoutePaths(x.route!.path as string, y.route!.path as string, size));
  });
}

/** Every route, in the order Express tries them. */
export function listRoutes(app: object): RegisteredRoute[] {
  return (app as ExpressLike).router.stack.filter(isRoute).map((layer) => ({
    path: layer.route!.path as string,
    methods: Object.keys(layer.route!.methods)
      .filter((m) => layer.route!.methods[m])
      .map((m) => m.toUpperCase()),
  }));
}

/**
 * Pairs where an earlier route captures a later one: same method, and the earlier path matches
 * every request the later one's literal segments name (a parameter where the later has a literal).
 */
export function shadowedRoutes(routes: RegisteredRoute[]): Array<{ shadowed: string; by: string }> {
  const found: Array<{ shadowed: string; by: string }> = [];
  routes.forEach((later, j) => {
    const sl = segmentsOf(later.path);
    for (const earlier of routes.slice(0, j)) {
      const methods = later.methods.filter((m) => earlier.methods.includes(m) || earlier.methods.includes('_ALL'));
      if (methods.length === 0) continue;
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
        if (e === undefined || l === undefined) captures = false;
        else if (segmentRank(e) === 1) widens ||= segmentRank(l) === 0;
        else if (segmentRank(l) !== 0 || e !== l) captures = false;
      }
      if (captures && widens)
        found.push({ shadowed: `${methods.join(',')} ${later.path}`, by: `${methods.join(',')} ${earlier.path}` });
    }
  });
  return found;
}
