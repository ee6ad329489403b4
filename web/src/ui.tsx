import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiFailure, describe } from './api';

const BASE = '/console';

/** The console's path (after /console), e.g. `/cards/Card:…`. */
export function currentPath(): string {
  const path = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : '/';
  return path === '' ? '/' : path;
}

const listeners = new Set<() => void>();
addEventListener('popstate', () => listeners.forEach((l) => l()));

export function navigate(path: string): void {
  history.pushState(null, '', `${BASE}${path}`);
  listeners.forEach((l) => l());
}

/** Re-renders on navigation; returns the current console path. */
export function usePath(): string {
  const [path, setPath] = useState(currentPath());
  useEffect(() => {
    const listener = () => setPath(currentPath());
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, []);
  return path;
}

export function Link(props: { to: string; children: ComponentChildren; current?: boolean }) {
  return (
    <a
      href={`${BASE}${props.to}`}
      aria-current={props.current ? 'page' : undefined}
      onClick={(e) => {
        if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
        e.preventDefault();
        navigate(props.to);
      }}
    >
      {props.children}
    </a>
  );
}

export interface Loaded<T> {
  data: T | undefined;
  error: string | null;
  /** The API's answer when the load failed (its FieldErrors for a 400). */
  failure: ApiFailure | null;
  reload: () => void;
}

/** Loads with `load` when `deps` change; `pollMs` reloads in the background. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[], pollMs?: number): Loaded<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<ApiFailure | null>(null);
  const [tick, setTick] = useState(0);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  useEffect(() => {
    let live = true;
    load().then(
      (d) => {
        if (!live) return;
        setData(d);
        setError(null);
        setFailure(null);
      },
      (e: unknown) => {
        if (!live) return;
        setError(describe(e));
        setFailure(e instanceof ApiFailure ? e : null);
        // A refused search shows no stale rows.
        if (e instanceof ApiFailure && e.status === 400) setData(undefined);
      },
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  useEffect(() => {
    if (!pollMs) return;
    const timer = setInterval(reload, pollMs);
    return () => clearInterval(timer);
  }, [pollMs, reload]);
  return { data, error, failure, reload };
}

export function ErrorNote(props: { error: string | null | undefined; id?: string }) {
  if (!props.error) return null;
  return (
    <p class="error" role="alert" id={props.id}>
      {props.error}
    </p>
  );
}

export function Loading(props: { what: string }) {
  return <p aria-busy="true">Loading {props.what}…</p>;
}

/**
 * A modal dialog (the platform's `<dialog>`: focus moves in, Escape closes, the page behind is
 * inert). Its confirming button repeats the action's name (`confirmLabel`).
 */
export function ConfirmDialog(props: {
  title: string;
  confirmLabel: string;
  onConfirm: () => Promise<void>;
  onClose: () => void;
  children?: ComponentChildren;
  error?: string | null;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  const titleId = `dialog-${props.confirmLabel.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <dialog ref={ref} aria-labelledby={titleId} onClose={props.onClose}>
      <form
        method="dialog"
        onSubmit={(e) => {
          e.preventDefault();
          setBusy(true);
          setError(null);
          props.onConfirm().then(
            () => {
              setBusy(false);
              ref.current?.close();
            },
            (err: unknown) => {
              setBusy(false);
              setError(describe(err));
            },
          );
        }}
      >
        <h2 id={titleId}>{props.title}</h2>
        {props.children}
        <ErrorNote error={props.error ?? error} />
        <div class="buttons">
          <button type="submit" class="primary" disabled={busy}>
            {props.confirmLabel}
          </button>
          <button type="button" onClick={() => ref.current?.close()}>
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  );
}

export function Time(props: { at: string | null | undefined }) {
  if (!props.at) return <span>—</span>;
  const d = new Date(props.at);
  return <time dateTime={props.at}>{d.toISOString().replace('T', ' ').slice(0, 19)} UTC</time>;
}

/** Minor units with the currency's exponent (2 unless told). */
export function Money(props: { amount: number | null | undefined; currency?: string; decimals?: number }) {
  if (props.amount === null || props.amount === undefined) return <span>—</span>;
  const decimals = props.decimals ?? 2;
  const value = (props.amount / 10 ** decimals).toFixed(decimals);
  return (
    <span class="money">
      {value} {props.currency ?? ''}
    </span>
  );
}

export function Status(props: { value: string }) {
  return <span class={`status status-${props.value.toLowerCase()}`}>{props.value}</span>;
}

/** Key/value rows of a definition list. */
export function Facts(props: { rows: Array<[string, ComponentChildren]> }) {
  return (
    <dl class="facts">
      {props.rows.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}
