// THE place where matrix rows are marked as expected to fail, with the reason. A row listed here
// must still fail, with an error matching `match`: when it passes, the test fails and asks for
// its line to be removed here (so a fix is never left unnoticed).
//
// Each entry: environment name → { reason, match }.
/** @type {Record<string, { reason: string, match: RegExp }>} */
export const EXPECTED_FAILURES = {};
