// What services may ask of the realtime layer beyond broadcasting: keep users' sockets in the rooms their
// memberships entitle them to, and ask who is online. Realtime implements it (server/realtime/index.ts) and
// createApp puts it in the app context, so services never import realtime/ or http/.
export interface RealtimeControls {
  /** Users with a connected socket in this workspace, on any node. */
  onlineUserIds(institutionId: string): Promise<Set<string>>;
  /** Put a user's sockets (on every node) into a workspace's room, e.g. after they join it. */
  joinInstitution(userId: string, institutionId: string): void;
  /** Take a user's sockets (on every node) out of a workspace's room and the rooms of the given channels. */
  leaveInstitution(userId: string, institutionId: string, channelIds: string[]): void;
  /** Put a user's sockets (on every node) into a channel's room, e.g. after they are added to it. */
  joinChannel(userId: string, channelId: string): void;
  /** Take a user's sockets (on every node) out of a channel's room, e.g. after they leave it. */
  leaveChannel(userId: string, channelId: string): void;
  /** Ends every socket opened with this session's token, on every node (after the session is revoked). */
  disconnectSession(sessionId: string): void;
}
