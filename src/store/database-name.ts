// The store's name on this device, apart from the store's code: the tab names it (and reads IndexedDB's
// list by it) without loading RxDB.
export const DEFAULT_DATABASE_NAME = 'lantern';
