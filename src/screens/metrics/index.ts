// The metrics route's one lazily loaded chunk: the frame and its seven pages (router.tsx loads this
// module on the first visit to /metrics, so none of it weighs on the chat screens).
export { EngagingMessagesScreen } from './engaging-messages.tsx';
export { GrowingChannelsScreen } from './growing-channels.tsx';
export { LatestChannelsScreen } from './latest-channels.tsx';
export { MetricsLayout } from './metrics-layout.tsx';
export { MostVisitedChannelsScreen } from './most-visited-channels.tsx';
export { MostVisitedGroupsScreen } from './most-visited-groups.tsx';
export { MostVisitedMembersScreen } from './most-visited-members.tsx';
export { MetricsOverview } from './overview.tsx';
