import type { OutboxWrite } from '../../outbox/outbox.service.js';
import type { AgentActionView } from './agent-action.render.js';

// The agent actions area declares the data its events carry (the outbox knows no area).
declare module '../../outbox/outbox.service.js' {
  interface WebhookDataByType {
    'AGENT_ACTION.PENDING_APPROVAL': AgentActionView;
  }
}

/** `AGENT_ACTION.PENDING_APPROVAL` (reference AgentActionWebhook): the whole action, quote embedded. */
export function agentActionPendingApproval(
  platformId: string,
  action: AgentActionView,
): OutboxWrite<'AGENT_ACTION.PENDING_APPROVAL'> {
  return { platformId, type: 'AGENT_ACTION.PENDING_APPROVAL', aggregateId: action.id, data: action };
}
