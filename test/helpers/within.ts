/**
 * `step`, or an error naming `what` when it has not settled in `ms`: a step that hangs says where
 * it is instead of running into the test's own time limit with no word of where.
 */
export async function within<T>(step: Promise<T>, what: string, ms = 20_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
  });
  try {
    return await Promise.race([step, late]);
  } finally {
    clearTimeout(timer);
  }
}
