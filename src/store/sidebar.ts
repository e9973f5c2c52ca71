// The sidebar as a live query over the store: the caller's stored sections, their local collapsed
// state and the joined channels of a workspace, arranged by src/store/sections.ts (works offline).
import type { RxCollection } from 'rxdb';
import { combineLatest, map, type Observable } from 'rxjs';
import type { ChannelDoc, ChannelFields, ChannelMemberDoc, RecordDoc } from '../../schemas/collections.ts';
import type { Section } from '../../schemas/protocol/index.ts';
import { arrangeSidebar, type SidebarSection } from './sections.ts';

export interface SidebarCollections {
  channels: RxCollection<ChannelDoc>;
  channelMembers: RxCollection<ChannelMemberDoc>;
  records: RxCollection<RecordDoc>;
}

/**
 * The sidebar as drawn: its sections, each channel without the fields every new message moves. A message
 * then changes nothing here, so the worker has nothing to send the tab and the sidebar does not redraw.
 * (Direct messages, ordered by their latest message, come from the joined list instead.)
 */
export interface SidebarView {
  sections: (Omit<SidebarSection, 'channels'> & { channels: ChannelFields[] })[];
}

function fieldsOf({ lastSeq: _seq, lastSentMessage: _last, ...fields }: ChannelDoc): ChannelFields {
  return fields;
}

export function watchSidebar(db: SidebarCollections, institutionId: string): Observable<SidebarView> {
  return combineLatest([
    db.records.find({ selector: { kind: 'section', institutionId } }).$,
    db.records.find({ selector: { kind: 'sectionCollapsed', institutionId } }).$,
    db.channels.find({ selector: { institutionId } }).$,
    db.channelMembers.find().$,
  ]).pipe(
    map(([sectionRows, collapsedRows, channels, memberships]) => {
      const sections = sectionRows.map((d) => (d.toJSON() as RecordDoc<'section'>).data as Section);
      const collapsed = new Set(
        collapsedRows
          .map((d) => (d.toJSON() as RecordDoc<'sectionCollapsed'>).data)
          .filter((r) => r.collapsed)
          .map((r) => r.sectionId),
      );
      const joined = new Set(memberships.map((m) => m.channelId));
      const list = channels.map((ch) => ch.toJSON() as ChannelDoc).filter((ch) => joined.has(ch.id));
      return {
        sections: arrangeSidebar(sections, list, collapsed).sections.map((arranged) => ({
          ...arranged,
          channels: arranged.channels.map(fieldsOf),
        })),
      };
    }),
  );
}
