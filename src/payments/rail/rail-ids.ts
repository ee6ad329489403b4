import { isUuid } from '../../common/ids.js';

/** The uuid of one of our ids as a provider echoes it: `<Type>:<uuid>` or the bare uuid; null otherwise. */
export function railUuid(id: string | null | undefined): string | null {
  if (!id) return null;
  const uuid = id.slice(id.lastIndexOf(':') + 1);
  return isUuid(uuid) ? uuid.toLowerCase() : null;
}
