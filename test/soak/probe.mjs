// Preloaded into a soak's service process (`node --import this …`): writes the process's memory
// figures to MARQUEE_SOAK_PROBE every second, for the soak to read beside RSS. Plain JS: the
// service may run from its bundle, without tsx.
import { writeFileSync } from 'node:fs';

const file = process.env.MARQUEE_SOAK_PROBE;
if (file) {
  const write = () => writeFileSync(file, JSON.stringify(process.memoryUsage()));
  write();
  setInterval(write, 1000).unref();
}
