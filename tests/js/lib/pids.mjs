// Processes a test file starts, stopped by PID when the file ends, whatever happened (not a test
// file itself: no `.test.` in the name).
import { after } from "node:test";

/**
 * A set of PIDs that are killed (SIGKILL) once every test of the calling file has run, also when
 * one failed; a process stopped earlier is taken out of it (`delete`). Call it at the top level.
 * @returns {Set<number>}
 */
export function killedAtEnd() {
  const pids = new Set();
  after(() => {
    for (const pid of pids) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {}
    }
  });
  return pids;
}
