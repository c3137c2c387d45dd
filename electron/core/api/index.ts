/**
 * The api room's door: shared/ipc.ts's operations over the rooms (operations.ts), the one gate every
 * call passes (dispatch.ts), the events the core pushes (events.ts), who the core works for
 * (account.ts) and the check of a service profile before it is saved (profile-check.ts).
 */
export { Account, accountKey } from './account.ts';
export { createDispatch, type DispatchParts } from './dispatch.ts';
export { CoreEvents } from './events.ts';
export { createOperations, type OperationContext, type Operations } from './operations.ts';
export { checkProfile, type ProfileCheckOptions } from './profile-check.ts';
