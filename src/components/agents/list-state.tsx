// A list fetched from the server, before its rows: a spinner while loading, the server's message when it
// could not load, the empty state when there is nothing; otherwise the rows.
import type { ReactNode } from 'react';
import { Spinner } from '../ui/states.tsx';
import { LoadError } from './load-error.tsx';

export function ListState<T>({
  list,
  error,
  empty,
  children,
}: {
  list: readonly T[] | undefined;
  error: string | null;
  empty: ReactNode;
  children: (list: readonly T[]) => ReactNode;
}) {
  if (list === undefined) return error ? <LoadError message={error} /> : <Spinner />;
  return list.length === 0 ? empty : children(list);
}
