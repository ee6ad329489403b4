import { useEffect, useState } from 'preact/hooks';
import { consoleGet, qs } from './api';
import { Link } from './ui';

/** What the console shows for an id (`GET /console/api/names`). */
export interface NameView {
  id: string;
  label: string;
  detail?: string;
}

/** The kinds of id the server names; other ids are shown as they are. */
const NAMED = ['Customer:', 'InternalAccount:', 'ExternalAccount:', 'Agent:', 'Card:', 'Transaction:'];
const BATCH = 100; // the server takes up to 200; 100 keeps the URL well under 16 KB

/** Names already fetched (null: the server has none for it), shared by every page of this tab. */
const known = new Map<string, NameView | null>();

const nameable = (id: string | null | undefined): id is string => !!id && NAMED.some((k) => id.startsWith(k));

/**
 * Names for the ids a page shows: the ones not known yet are fetched together (one request per 200
 * ids, one statement per kind on the server), never one per row. Re-renders when they arrive.
 */
export function useNames(ids: Array<string | null | undefined>): Map<string, NameView> {
  const wanted = [...new Set(ids.filter(nameable))].sort();
  const key = wanted.join(',');
  const [, setVersion] = useState(0);
  useEffect(() => {
    const missing = wanted.filter((id) => !known.has(id));
    if (missing.length === 0) return;
    let live = true;
    const batches: string[][] = [];
    for (let i = 0; i < missing.length; i += BATCH) batches.push(missing.slice(i, i + BATCH));
    void Promise.all(
      batches.map((batch) =>
        consoleGet<Record<string, NameView>>(`/names${qs({ ids: batch.join(',') })}`).then(
          (found) => {
            for (const id of batch) known.set(id, found[id] ?? null);
          },
          () => undefined,
        ),
      ),
    ).then(() => live && setVersion((v) => v + 1));
    return () => {
      live = false;
    };
  }, [key]);
  const out = new Map<string, NameView>();
  for (const id of wanted) {
    const name = known.get(id);
    if (name) out.set(id, name);
  }
  return out;
}

/** Where a named resource's page is, if the console has one. */
function pageOf(id: string): string | undefined {
  const [kind] = id.split(':');
  const section: Record<string, string> = {
    Customer: 'customers',
    Agent: 'agents',
    Card: 'cards',
    Transaction: 'transactions',
  };
  return section[kind] ? `/${section[kind]}/${encodeURIComponent(id)}` : undefined;
}

/** The id as secondary text, with a button that copies it. */
export function CopyableId(props: { id: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <span class="id-line">
      <code class="id">{props.id}</code>
      <button
        type="button"
        class="copy"
        aria-label={`Copy ${props.id}`}
        title="Copy the id"
        onClick={() => {
          void navigator.clipboard?.writeText(props.id).then(
            () => setCopied(true),
            () => setCopied(false),
          );
        }}
      >
        Copy
      </button>
      {copied && (
        <span class="copied" role="status">
          Copied
        </span>
      )}
    </span>
  );
}

/**
 * A resource by its name (a link to its page where the console has one), what it belongs to, and
 * its id below as copyable secondary text. Falls back to the id while (or if) no name is known.
 */
export function Named(props: { id: string | null | undefined; names: Map<string, NameView>; link?: boolean }) {
  const { id } = props;
  if (!id) return <span>—</span>;
  const name = props.names.get(id);
  const to = props.link === false ? undefined : pageOf(id);
  const label = name?.label ?? id;
  return (
    <span class="named">
      <span class="name">
        {to ? <Link to={to}>{label}</Link> : <span class={name ? undefined : 'mono'}>{label}</span>}
        {name?.detail ? <span class="detail"> · {name.detail}</span> : null}
      </span>
      {name && <CopyableId id={id} />}
    </span>
  );
}
