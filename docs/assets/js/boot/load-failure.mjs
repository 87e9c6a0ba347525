// A failed start of Python, naming what failed (a runtime file, the calculators package, the
// start itself) with the last line of its cause: what the page shows beside Retry.

export class LoadFailure extends Error {
  constructor(what, cause) {
    // A Python traceback's last line says what went wrong; the rest is noise for a reader.
    super(lastLine(cause instanceof Error ? cause.message : (cause?.message ?? String(cause))));
    this.what = what;
  }
}

/** Run one step of the start; a failure becomes a LoadFailure naming `what`. */
export async function step(what, work) {
  try {
    return await work();
  } catch (err) {
    throw err instanceof LoadFailure ? err : new LoadFailure(what, err);
  }
}

/** The last line of a message (a Python traceback's says what went wrong). */
export function lastLine(text) {
  const lines = String(text).trim().split("\n");
  return lines[lines.length - 1];
}
