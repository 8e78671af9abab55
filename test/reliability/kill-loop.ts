export interface KillLoopReport { kills: number; restarts: number; venueOrders: number; journalIntents: number; wallSeconds: number; violations: string[] }
export async function runKillLoop(o: { kills: number; seed: number }): Promise<KillLoopReport> {
  void o;
  return { kills: 0, restarts: 0, venueOrders: 0, journalIntents: 0, wallSeconds: 0, violations: ['kill loop not built yet'] };
}
