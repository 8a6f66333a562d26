import { Elysia } from "elysia";
import type { App } from "../app";
import { authRoutes } from "./auth";
import { eventRoutes } from "./events";
import { userRoutes } from "./users";

/** Every API area, mounted under /api/v1. */
export function apiRoutes(app: App) {
  return new Elysia({ prefix: "/api/v1" })
    .use(authRoutes(app))
    .use(eventRoutes(app))
    .use(userRoutes(app));
}
