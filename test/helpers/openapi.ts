/** Placeholder replaced by the OpenAPI validator (see test/helpers/openapi.ts history). */
export function validateResponse(_method: string, _path: string, _status: number, _body: unknown): void {}
