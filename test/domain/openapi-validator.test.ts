import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { haveOpenApiSpec, OPENAPI_SPEC_PATH, OpenApiValidator, validateResponse } from "../helpers/openapi";

const zulip = new OpenApiValidator(OPENAPI_SPEC_PATH);
const withSpec = haveOpenApiSpec("the checks against Zulip's own OpenAPI file (test/domain/openapi-validator.test.ts)");
let example: Record<string, unknown> | undefined;
const ownUserExample = (): Record<string, unknown> => {
  if (!example) {
    const doc = parse(readFileSync(OPENAPI_SPEC_PATH, "utf8"));
    const schema = doc.paths["/users/me"].get.responses["200"].content["application/json"].schema;
    example = schema.allOf.find((part: any) => part.example).example;
  }
  return structuredClone(example!);
};

function thrown(fn: () => void): string {
  try {
    fn();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error("expected a validation error");
}

describe.skipIf(!withSpec)("validating against Zulip's OpenAPI file", () => {
  test("the documented GET /users/me example passes", () => {
    zulip.validate("GET", "/api/v1/users/me", 200, ownUserExample());
  });

  test("a field of the wrong type fails with the method, path, status and field in the message", () => {
    const body = { ...ownUserExample(), role: "member" };
    const msg = thrown(() => zulip.validate("GET", "/api/v1/users/me", 200, body));
    expect(msg).toContain("GET /api/v1/users/me (200)");
    expect(msg).toContain("/role must be integer");
  });

  test("an undocumented key in a success response fails and is named", () => {
    const body = { ...ownUserExample(), favourite_colour: "blue" };
    expect(thrown(() => zulip.validate("GET", "/api/v1/users/me", 200, body))).toContain('additionalProperty: "favourite_colour"');
  });

  test("ignored_parameters_unsupported is accepted on every success response", () => {
    zulip.validate("GET", "/api/v1/users/me", 200, { ...ownUserExample(), ignored_parameters_unsupported: ["colour"] });
    zulip.validate("DELETE", "/api/v1/users/me", 200, { result: "success", msg: "", ignored_parameters_unsupported: ["x"] });
    expect(thrown(() => zulip.validate("DELETE", "/api/v1/users/me", 200, { result: "success", msg: "", ignored_parameters_unsupported: "x" }))).toContain(
      "/ignored_parameters_unsupported must be array",
    );
  });

  test("a malformed event is reported against its own event type only", () => {
    const body = { result: "success", msg: "", queue_id: "q", events: [{ type: "heartbeat", id: "x" }] };
    const msg = thrown(() => zulip.validate("GET", "/api/v1/events", 200, body));
    expect(msg).toContain("/events/0/id must be integer");
    expect(msg).not.toContain("allowedValues");
    zulip.validate("GET", "/api/v1/events", 200, { ...body, events: [{ type: "heartbeat", id: 1 }] });
  });

  test("undocumented paths, methods and status codes are not checked", () => {
    zulip.validate("GET", "/api/v1/no_such_endpoint", 200, { anything: true });
    zulip.validate("PUT", "/api/v1/users/me", 200, { anything: true });
    zulip.validate("GET", "/api/v1/users/me", 302, { anything: true });
    zulip.validate("GET", "/not-the-api/users/me", 200, { anything: true });
  });

  test("error responses are checked only for the result, msg and code envelope", () => {
    zulip.validate("GET", "/api/v1/users/me", 401, { result: "error", msg: "Invalid API key", code: "UNAUTHORIZED", extra: 1 });
    const msg = thrown(() => zulip.validate("GET", "/api/v1/users/me", 400, { result: "error", msg: "Oops" }));
    expect(msg).toContain("GET /api/v1/users/me (400)");
    expect(msg).toContain("missingProperty: \"code\"");
  });

  test("literal path segments win over templates and id parameters only match numbers", () => {
    expect(zulip.findRoute("/api/v1/users/me")?.template).toBe("/users/me");
    expect(zulip.findRoute("/api/v1/users/12")?.template).toBe("/users/{user_id}");
    expect(zulip.findRoute("/api/v1/users/hamlet%40zulip.com")?.template).toBe("/users/{email}");
    expect(zulip.findRoute("/api/v1/users/me/presence")?.template).toBe("/users/me/presence");
    expect(zulip.findRoute("/api/v1/users/7/presence")?.template).toBe("/users/{user_id_or_email}/presence");
    expect(zulip.findRoute("/api/v1/messages/42")?.template).toBe("/messages/{message_id}");
    expect(zulip.findRoute("/api/v1/messages/abc")).toBeNull();
  });

  test("a validation takes well under a millisecond once compiled", () => {
    const body = ownUserExample();
    zulip.validate("GET", "/api/v1/users/me", 200, body);
    const t0 = performance.now();
    for (let i = 0; i < 1000; i++) zulip.validate("GET", "/api/v1/users/me", 200, body);
    expect((performance.now() - t0) / 1000).toBeLessThan(0.5);
  });
});

describe("schema conversion", () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-openapi-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const specPath = join(dir, "spec.yaml");
  writeFileSync(
    specPath,
    `
openapi: 3.0.1
paths:
  /things/{thing_id}:
    get:
      responses:
        "200":
          content:
            application/json:
              schema:
                allOf:
                  - $ref: "#/components/schemas/Base"
                  - additionalProperties: false
                    properties:
                      result: {}
                      msg: {}
                      thing:
                        $ref: "#/components/schemas/Thing"
                      note:
                        type: string
                        nullable: true
                        example: "x"
                      x-internal: {}
        "4XX":
          description: error
  /plain:
    post:
      responses:
        default:
          $ref: "#/components/responses/Simple"
components:
  responses:
    Simple:
      content:
        application/json:
          schema:
            $ref: "#/components/schemas/Base"
  schemas:
    Base:
      type: object
      required: [result, msg]
      properties:
        result:
          type: string
          enum: [success]
        msg:
          type: string
    Thing:
      allOf:
        - type: object
          additionalProperties: false
          properties:
            id:
              type: integer
        - additionalProperties: false
          required: [id]
          properties:
            id: {}
            colour:
              type: string
              enum: [red, blue]
              nullable: true
            size:
              oneOf:
                - type: integer
                - type: string
`,
  );
  const v = new OpenApiValidator(specPath);
  const ok = { result: "success", msg: "", thing: { id: 1, colour: "red", size: 3 }, note: "hi" };

  test("allOf parts with additionalProperties false are merged into one object", () => {
    v.validate("GET", "/api/v1/things/1", 200, ok);
    expect(thrown(() => v.validate("GET", "/api/v1/things/1", 200, { ...ok, thing: { colour: "red" } }))).toContain(
      "/thing must have required property 'id'",
    );
    expect(thrown(() => v.validate("GET", "/api/v1/things/1", 200, { ...ok, thing: { id: 1, weight: 2 } }))).toContain(
      'additionalProperty: "weight"',
    );
  });

  test("nullable fields and enums accept null but nothing else undocumented", () => {
    v.validate("GET", "/api/v1/things/1", 200, { ...ok, note: null, thing: { id: 1, colour: null, size: "L" } });
    expect(thrown(() => v.validate("GET", "/api/v1/things/1", 200, { ...ok, thing: { id: 1, colour: "green" } }))).toContain(
      "/thing/colour must be equal to one of the allowed values",
    );
    expect(thrown(() => v.validate("GET", "/api/v1/things/1", 200, { ...ok, thing: { id: 1, size: true } }))).toContain("/thing/size");
  });

  test("a referenced default response is used when the status is not listed", () => {
    v.validate("POST", "/api/v1/plain", 201, { result: "success", msg: "" });
    expect(thrown(() => v.validate("POST", "/api/v1/plain", 200, { result: "ok", msg: "" }))).toContain("/result must be equal to one of the allowed values");
  });

  test("an error status of a documented operation gets the envelope check", () => {
    v.validate("GET", "/api/v1/things/1", 404, { result: "error", msg: "No such thing", code: "BAD_REQUEST" });
    expect(thrown(() => v.validate("GET", "/api/v1/things/1", 404, { result: "error", msg: 5, code: "X" }))).toContain("/msg must be string");
  });

  test("a missing spec file validates nothing", () => {
    new OpenApiValidator(join(dir, "absent.yaml")).validate("GET", "/api/v1/users/me", 200, { nonsense: true });
  });

  test.skipIf(!withSpec)("PARLEY_SKIP_OPENAPI=1 turns the shared validator off", () => {
    const bad = { ...ownUserExample(), role: "member" };
    expect(() => validateResponse("GET", "/api/v1/users/me", 200, bad)).toThrow("/role must be integer");
    process.env.PARLEY_SKIP_OPENAPI = "1";
    try {
      validateResponse("GET", "/api/v1/users/me", 200, bad);
    } finally {
      delete process.env.PARLEY_SKIP_OPENAPI;
    }
  });
});
