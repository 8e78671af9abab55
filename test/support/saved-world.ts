import { StateStore } from '../../src/sandbox/state-store.js';
import type { SimSnapshot } from '../../src/sim/snapshot.js';

/** The world an embedded sandbox saved in its state file, read once no run holds it; throws when the file holds none. */
export function savedWorld(file: string): SimSnapshot {
  const store = new StateStore(file);
  try {
    const s = store.load();
    if (s === undefined) throw new Error(`${file} holds no world`);
    return s;
  } finally {
    store.close();
  }
}
