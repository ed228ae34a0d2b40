// At most one call per interval: what a teammate needs of my cursor is where it
// is now, not every cell a fast click or a drag passed over (each message counts
// against the connection's rate limit, which moves share).

/**
 * Wraps `run` so it runs at once, then at most once every `ms`: calls inside
 * the interval are folded into one call at its end (which reads the state then).
 */
export function throttled(run: () => void, ms: number): () => void {
  let waiting = false;
  let due = false;
  const call = () => {
    if (waiting) {
      due = true;
      return;
    }
    run();
    waiting = true;
    setTimeout(() => {
      waiting = false;
      if (due) {
        due = false;
        call();
      }
    }, ms);
  };
  return call;
}
