// Every test file gets a fresh fake IndexedDB (store tests) and nothing else global.
import 'fake-indexeddb/auto';
