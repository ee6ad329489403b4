/** `AGENT_ACTION.PENDING_APPROVAL` (reference AgentActionWebhook): the whole action, quote embedded. */
export function agentActionPendingApproval(platformId, action) {
    return { platformId, type: 'AGENT_ACTION.PENDING_APPROVAL', aggregateId: action.id, data: action };
}
//# sourceMappingURL=agent-action-events.js.map