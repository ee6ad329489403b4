var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { randomBytes, randomInt } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock.js';
import { newUuid } from '../../common/ids.js';
import { CardIssuer, } from './card-issuer.js';
/** Years a sandbox card is valid for. */
const VALIDITY_YEARS = 3;
/**
 * The sandbox issuer's authorization outcomes, by the last three characters of the merchant
 * descriptor (the reference's table): `002` declines INSUFFICIENT_FUNDS, `003` declines
 * CARD_NOT_ACTIVE, `005` (a delayed pull) is approved like any other here, `006` is approved but
 * its pull confirmation fails (the clearing ends EXCEPTION); anything else goes to decisioning.
 */
export function sandboxAuthorizationOutcome(descriptor) {
    switch (descriptor.slice(-3)) {
        case '002':
            return { declinedReason: 'INSUFFICIENT_FUNDS', pullOutcome: 'OK' };
        case '003':
            return { declinedReason: 'CARD_NOT_ACTIVE', pullOutcome: 'OK' };
        case '006':
            return { declinedReason: null, pullOutcome: 'CONFIRMATION_FAILS' };
        default:
            return { declinedReason: null, pullOutcome: 'OK' };
    }
}
const sandboxToken = () => Promise.resolve({ issuerTransactionToken: `sandbox_txn_${newUuid()}` });
/**
 * The sandbox issuer: invents the card's identity (VISA, random last four digits, expiry three
 * years out, opaque refs), approves every provisioning (a rejection is simulated with
 * `POST /sandbox/cards/{id}/simulate/provisioning`), accepts status changes and 3-D Secure
 * passwords and keeps nothing; forwards authorizations with the descriptor-suffix outcomes and a
 * fresh token for every card network event.
 */
let SandboxCardIssuer = class SandboxCardIssuer extends CardIssuer {
    clock;
    constructor(clock) {
        super();
        this.clock = clock;
    }
    requestCard(_request) {
        const now = this.clock.now();
        return Promise.resolve({
            brand: 'VISA',
            last4: String(randomInt(0, 10_000)).padStart(4, '0'),
            expMonth: now.getUTCMonth() + 1,
            expYear: now.getUTCFullYear() + VALIDITY_YEARS,
            processorRef: `sandbox_card_${randomBytes(8).toString('hex')}`,
            issuerRef: `sandbox_issuer_${randomBytes(8).toString('hex')}`,
        });
    }
    provisioningOutcome(_card) {
        return Promise.resolve('ACTIVE');
    }
    changeStatus() {
        return Promise.resolve();
    }
    setThreeDSecurePassword() {
        return Promise.resolve();
    }
    async authorize(request) {
        const { issuerTransactionToken } = await sandboxToken();
        return { issuerTransactionToken, ...sandboxAuthorizationOutcome(request.merchant.descriptor) };
    }
    clear() {
        return sandboxToken();
    }
    reverse() {
        return sandboxToken();
    }
    refund() {
        return sandboxToken();
    }
};
SandboxCardIssuer = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [Clock])
], SandboxCardIssuer);
export { SandboxCardIssuer };
//# sourceMappingURL=sandbox-card-issuer.js.map