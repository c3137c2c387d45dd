import type { OperationInput, OperationName, OperationResult } from '../../../shared/ipc.ts';
import type { Result } from '../../../shared/models.ts';
import type { RunningApp } from './app.ts';

/**
 * One operation of the app's API called by the test itself over the web host (with the launch
 * token), to set up or read back state the way the renderer would.
 */
export async function apiCall<N extends OperationName>(
  app: RunningApp,
  name: N,
  input: OperationInput<N>,
): Promise<OperationResult<N>> {
  const token = /#token=([\w-]+)/.exec(app.launchUrl)![1]!;
  const res = await fetch(`${app.hostUrl}/api/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(input),
  });
  const result = (await res.json()) as Result<OperationResult<N>>;
  if (!result.ok) throw new Error(`${name}: ${result.error.kind}: ${result.error.message}`);
  return result.value;
}
