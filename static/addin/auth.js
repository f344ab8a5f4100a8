// Sign-in state: the API key lives in localStorage under Office's partition key,
// never in document settings (those travel with the file to whoever opens it next).

const KEY = "redline.apiKey";
const WHO = "redline.identity";

function storageKey(name) {
  // Office.context.partitionKey is undefined where storage is not partitioned (Windows desktop).
  return (Office.context.partitionKey || "") + name;
}

export function storedKey() {
  return localStorage.getItem(storageKey(KEY));
}

export function storedIdentity() {
  try {
    return JSON.parse(localStorage.getItem(storageKey(WHO)) || "null");
  } catch {
    return null;
  }
}

export function remember({ key, user, workspace }) {
  localStorage.setItem(storageKey(KEY), key);
  localStorage.setItem(storageKey(WHO), JSON.stringify({ user, workspace }));
}

export function forget() {
  localStorage.removeItem(storageKey(KEY));
  localStorage.removeItem(storageKey(WHO));
}

/** Namespaced storage for other per-partition state (the outbox of applied suggestions). */
export function partitioned(name) {
  return storageKey(name);
}

/**
 * Open the same-origin sign-in dialog and wait for the key it sends back.
 * Resolves with {key, user, workspace}; rejects with a plain-words Error when the
 * dialog cannot open or is closed before signing in.
 */
export function signIn() {
  return new Promise((resolve, reject) => {
    const url = new URL("/addin/signin/", window.location.origin).href;
    Office.context.ui.displayDialogAsync(url, { height: 60, width: 30 }, (result) => {
      if (result.status !== Office.AsyncResultStatus.Succeeded) {
        reject(new Error(`The sign-in window could not open (${result.error.message}).`));
        return;
      }
      const dialog = result.value;
      dialog.addEventHandler(Office.EventType.DialogMessageReceived, (arg) => {
        if (arg.origin && arg.origin !== window.location.origin) return; // DialogOrigin 1.1: only our own pages
        let message;
        try {
          message = JSON.parse(arg.message);
        } catch {
          return;
        }
        if (message.type !== "redline:signed-in" || !message.key) return;
        dialog.close();
        resolve({ key: message.key, user: message.user, workspace: message.workspace });
      });
      dialog.addEventHandler(Office.EventType.DialogEventReceived, () => {
        reject(new Error("The sign-in window was closed before signing in."));
      });
    });
  });
}

/**
 * Send the key with every htmx request (the account fragment), and end the session
 * in the pane when the server no longer accepts it or the user signs out there.
 *
 * @param {(reason: string) => void} onSignedOut
 */
export function wireHtmx(onSignedOut) {
  document.body.addEventListener("htmx:configRequest", (event) => {
    const key = storedKey();
    if (key) event.detail.headers.Authorization = `Bearer ${key}`;
  });
  document.body.addEventListener("htmx:afterRequest", (event) => {
    if (event.detail.elt.id === "sign-out") {
      forget(); // whatever the server said: signing out here must always work
      onSignedOut("You are signed out.");
    }
  });
  document.body.addEventListener("htmx:responseError", (event) => {
    if (event.detail.xhr.status === 401) {
      forget();
      onSignedOut("Your sign-in is no longer valid (it may have been revoked). Sign in again.");
    }
  });
}
