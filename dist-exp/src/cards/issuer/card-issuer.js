/**
 * The card issuer (and its processor): an external system behind one adapter. The sandbox
 * implementation (`SandboxCardIssuer`) is bound in CardsModule; a real issuer integration replaces
 * the binding, not the card rules (CardsService, CardTransactionsService).
 */
export class CardIssuer {
}
//# sourceMappingURL=card-issuer.js.map