import { autocannonRun } from '../lib/http.js';
import { interleaved } from '../support.js';
/** The framework floor: two paths that touch the database little or not at all, against the bare app. */
export const tokensGet = {
    name: 'tokens-get',
    engines: ['postgres', 'embedded'],
    async run(ctx) {
        const res = await fetch(`${ctx.app.baseUrl}/tokens`, { headers: { authorization: ctx.platform.authorization } });
        const { data } = (await res.json());
        const url = `${ctx.app.baseUrl}/tokens/${data[0].id}`;
        const runs = await interleaved(ctx, (seconds) => autocannonRun({ url, authorization: ctx.platform.authorization, connections: ctx.connections, seconds }), (seconds) => autocannonRun({ url: ctx.bareUrl, connections: ctx.connections, seconds }));
        return [
            {
                kind: 'pair',
                engine: ctx.app.engine,
                path: '`GET /tokens/{id}` (authenticated)',
                reference: 'bare NestJS app',
                target: 0.5,
                ...runs,
            },
        ];
    },
};
export const healthz = {
    name: 'healthz',
    engines: ['postgres'],
    async run(ctx) {
        const url = `${ctx.app.origin}/healthz`;
        const runs = await interleaved(ctx, (seconds) => autocannonRun({ url, connections: ctx.connections, seconds }), (seconds) => autocannonRun({ url: ctx.bareUrl, connections: ctx.connections, seconds }));
        return [
            {
                kind: 'pair',
                engine: ctx.app.engine,
                path: '`GET /healthz`',
                reference: 'bare NestJS app',
                target: 0.8,
                ...runs,
            },
        ];
    },
};
//# sourceMappingURL=framework.js.map