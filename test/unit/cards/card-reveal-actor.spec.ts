import { CardRevealService } from '../../../src/cards/card-reveal.service.js';
import { ApiError } from '../../../src/errors/api-error.js';
import '../../../src/error-catalogue.js';

/** A reveal with no attributable actor (the reference's impersonated session) is 403 before anything is read. */
describe('CardRevealService.reveal: the actor', () => {
  const service = new CardRevealService(null as never, null as never, null as never, null as never, null as never);

  it.each([[undefined], [{}], [{ kind: 'platform', platformId: 'p' }]])(
    'refuses %j with 403 FORBIDDEN',
    async (principal) => {
      const refused = service.reveal(principal, 'p', '00000000-0000-7000-8000-000000000000', 'http://x');
      await expect(refused).rejects.toBeInstanceOf(ApiError);
      await expect(refused).rejects.toMatchObject({ code: 'FORBIDDEN', status: 403 });
    },
  );
});
