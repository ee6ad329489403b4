import type { Suite } from '../support.js';
import { cardAuthorizations } from './card-authorizations.js';
import { cards } from './cards.js';
import { agentExecute } from './agents.js';
import { externalAccountGet, externalAccountPost } from './external-accounts.js';
import { healthz, tokensGet } from './framework.js';
import { outbox } from './outbox.js';
import { platformExecute } from './payments.js';

/** Every suite, in run order. A new suite: one file here, added to this list. */
export const SUITES: Suite[] = [
  tokensGet,
  healthz,
  externalAccountGet,
  externalAccountPost,
  cards,
  outbox,
  cardAuthorizations,
  agentExecute,
  platformExecute,
];
