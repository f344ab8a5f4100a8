// The API client: same origin, bearer key, one error shape.

import { ApiError, NetworkError } from "./errors.js";

export class Api {
  /** @param {() => string|null} key returns the current API key (read at each call). */
  constructor(key) {
    this.key = key;
  }

  /**
   * @param {string} method
   * @param {string} path under /api/, e.g. "/runs/3"
   * @param {{json?: object, form?: FormData}} body
   */
  async request(method, path, { json, form } = {}) {
    const headers = { Accept: "application/json" };
    const key = this.key();
    if (key) headers.Authorization = `Bearer ${key}`;
    let body;
    if (json !== undefined) {
      headers["Content-Type"] = "application/json";
      body = JSON.stringify(json);
    } else if (form !== undefined) {
      body = form;
    }
    let response;
    try {
      response = await fetch(`/api${path}`, { method, headers, body, credentials: "omit", cache: "no-store" });
    } catch (error) {
      throw new NetworkError(error.message);
    }
    const data = await response.json().catch(() => ({}));
    if (!response.ok) throw new ApiError(response.status, data);
    return data;
  }

  get(path) {
    return this.request("GET", path);
  }

  post(path, json = {}) {
    return this.request("POST", path, { json });
  }

  upload(path, form) {
    return this.request("POST", path, { form });
  }
}
