// Every test file's setup: when a test fails while end-to-end browsers are open, their pages are
// photographed and their words printed (test/e2e/helpers/evidence.ts). Other files open none.
import { beforeEach } from 'vitest';
import { recordFailure } from '../e2e/helpers/evidence.ts';

beforeEach(({ task, onTestFailed }) => {
  onTestFailed(() => recordFailure(task.name));
});
