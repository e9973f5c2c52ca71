// Operations the server refused (a reaction, a pin, an edit…) were rolled back in the store; this tells
// the person why, with the server's message, once per refusal.
import { useEffect } from 'react';
import { toast } from '../../app/toast.ts';
import { dismissNotice, useNotices } from '../../data/notices.ts';

export function NoticeToasts({ institutionId }: { institutionId: string }) {
  const notices = useNotices(institutionId);
  useEffect(() => {
    for (const notice of notices ?? []) {
      toast.error(notice.message, { id: notice.id });
      void dismissNotice(notice.id).catch(() => {});
    }
  }, [notices]);
  return null;
}
