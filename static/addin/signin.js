// The sign-in dialog's last page: hand the new key to the task pane, which closes us.
// The key is in this page once (json_script), travels only through messageParent to the
// pane on our own origin, and is never stored here.

const payload = document.getElementById("redline-signin").textContent;

Office.onReady().then(() => {
  try {
    Office.context.ui.messageParent(payload);
  } catch {
    // Opened outside an Office dialog: there is no pane to receive the key.
    document.getElementById("signin-status").textContent =
      "You are signed in, but this window was not opened from Word. Close it and choose Sign in in the Redline pane.";
  }
});
