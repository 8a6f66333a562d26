import { REGISTER_PARAMS } from "../state/register-params";
import { api } from "./http";

/* eslint-disable @typescript-eslint/no-explicit-any */
export const register = () => api<any>("POST", "/register", REGISTER_PARAMS);
