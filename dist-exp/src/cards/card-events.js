/** `card.status_change` of the spec: the card (as the API renders it, `renderCard`) is the data. */
export function cardStatusChange(platformId, card) {
    return { platformId, type: 'CARD.STATUS_CHANGE', aggregateId: card.id, data: { ...card } };
}
//# sourceMappingURL=card-events.js.map