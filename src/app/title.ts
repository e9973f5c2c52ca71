// Page titles: '{page} - Lantern', or just 'Lantern' when a page sets none (spec §2 root shell).
import { useEffect } from 'react';

export const APP_NAME = 'Lantern';

export function formatTitle(page?: string | null): string {
  return page ? `${page} - ${APP_NAME}` : APP_NAME;
}

/** Sets the document title while the calling screen is shown, restoring the plain app name after. */
export function usePageTitle(page?: string | null): void {
  useEffect(() => {
    document.title = formatTitle(page);
    return () => {
      document.title = APP_NAME;
    };
  }, [page]);
}
