import { Message } from '../../shared/protocol/index.ts';

/**
 * An error the client is told about with the contract's status body. Thrown anywhere in a
 * request; the error handler (http/status.ts) turns it into `<status>` with the same HTTP code.
 */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly subCode?: number,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  static invalid(param: string, subCode?: number): ApiError {
    return new ApiError(400, Message.invalid(param), subCode);
  }

  static required(param: string): ApiError {
    return new ApiError(400, Message.required(param));
  }

  static notFound(message: string = Message.notFound, subCode?: number): ApiError {
    return new ApiError(404, message, subCode);
  }

  static unauthorized(message: string): ApiError {
    return new ApiError(401, message);
  }
}
