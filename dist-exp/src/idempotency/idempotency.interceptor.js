var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { HttpStatus, Injectable } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import { from, lastValueFrom, map } from 'rxjs';
import { TransactionService } from '../database/transaction.service.js';
import { fieldError } from '../errors/field-error.js';
import { invalidInput } from '../errors/validation-errors.js';
import { IdempotencyService, inProgress, PriorRecord } from './idempotency.service.js';
export const IDEMPOTENT_OPTIONS = 'idempotency:options';
/** Metadata key: the route refuses a request without `Idempotency-Key` (`@Idempotent({ required: true })`). */
export const IDEMPOTENCY_KEY_REQUIRED = 'idempotency:required';
/**
 * Runs an `@Idempotent()` handler so that its effects and its idempotency record commit (or roll
 * back) together: in one transaction opened by the key's lock and lookup, or, on a
 * `oneStatement` route, in the handler's own statement. See IdempotencyService for the rules.
 */
let IdempotencyInterceptor = class IdempotencyInterceptor {
    reflector;
    tx;
    idempotency;
    constructor(reflector, tx, idempotency) {
        this.reflector = reflector;
        this.tx = tx;
        this.idempotency = idempotency;
    }
    intercept(context, next) {
        const http = context.switchToHttp();
        const req = http.getRequest();
        const header = req.headers['idempotency-key'];
        if (header === undefined &&
            req.principal &&
            this.reflector.get(IDEMPOTENCY_KEY_REQUIRED, context.getHandler())) {
            throw invalidInput([
                fieldError('Idempotency-Key', 'the Idempotency-Key header is required on this route', {
                    minLength: 1,
                    maxLength: 255,
                }),
            ]);
        }
        if (header === undefined || !req.principal)
            return next.handle();
        if (typeof header !== 'string' || header.length < 1 || header.length > 255) {
            throw invalidInput([
                fieldError('Idempotency-Key', 'must be 1 to 255 characters', { minLength: 1, maxLength: 255 }),
            ]);
        }
        const handler = context.getHandler();
        const options = this.reflector.get(IDEMPOTENT_OPTIONS, handler) ?? {};
        const call = {
            platformId: req.principal.platformId,
            // An agent's keys are its own: prefixed with a control character no HTTP header can carry, so
            // no key the platform (or another agent) sends can name them.
            key: req.principal.kind === 'agent' ? `\u0001agent:${req.principal.agentId}:${header}` : header,
            fingerprint: this.idempotency.fingerprint(req.method, req.originalUrl, req.body),
            status: this.reflector.get(HTTP_CODE_METADATA, handler) ?? HttpStatus.CREATED,
            handle: () => lastValueFrom(next.handle(), { defaultValue: undefined }),
        };
        const outcome = options.oneStatement ? this.oneStatement(call) : this.inTransaction(call);
        const res = http.getResponse();
        return from(outcome).pipe(map((result) => {
            if (result.replayed) {
                res.status(result.status);
                res.setHeader('Idempotent-Replayed', 'true');
            }
            return result.body;
        }));
    }
    inTransaction(call) {
        const { platformId, key, fingerprint, status } = call;
        return this.tx.run(async (manager) => {
            const replay = await this.idempotency.begin(manager, platformId, key, fingerprint);
            if (replay)
                return replay;
            const body = await call.handle();
            await this.idempotency.record(manager, platformId, key, fingerprint, status, body);
            return { replayed: false, status, body };
        });
    }
    /**
     * The handler's statement writes the record, or finds the key's prior record (thrown as
     * `PriorRecord`). Any other failure may stem from a request with this key that committed
     * meanwhile (the record's unique violation, or the effect finding that request's row): the record
     * is read anew and answers when there is one. An expired record is deleted and the handler runs
     * once more.
     */
    async oneStatement(call) {
        const { platformId, key, fingerprint, status } = call;
        for (let attempt = 0;; attempt++) {
            try {
                const { value, recorded } = await this.idempotency.keyed({ platformId, key, fingerprint, status }, call.handle);
                if (!recorded)
                    throw new Error('A oneStatement idempotent handler answered without writing its record');
                return { replayed: false, status, body: value };
            }
            catch (err) {
                const prior = err instanceof PriorRecord
                    ? err
                    : await this.idempotency.find(this.tx.manager, platformId, key).catch(() => null);
                if (!prior)
                    throw err;
                const outcome = this.idempotency.answer(prior, fingerprint);
                if (outcome)
                    return outcome;
                if (attempt > 0)
                    throw err instanceof PriorRecord ? inProgress() : err;
                await this.idempotency.forget(this.tx.manager, platformId, key, prior);
            }
        }
    }
};
IdempotencyInterceptor = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [Reflector,
        TransactionService,
        IdempotencyService])
], IdempotencyInterceptor);
export { IdempotencyInterceptor };
//# sourceMappingURL=idempotency.interceptor.js.map