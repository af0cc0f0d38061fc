"use strict";
// The login form: POST the token as JSON; the server answers with a session cookie.
document.getElementById("login").addEventListener("submit", async (event) => {
  event.preventDefault();
  const error = document.getElementById("login-error");
  error.hidden = true;
  const response = await fetch("/inbox/login", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ token: document.getElementById("token").value.trim() }),
    credentials: "same-origin",
  });
  if (response.ok) {
    location.reload();
    return;
  }
  const body = await response.json().catch(() => ({}));
  error.textContent = (body.error && body.error.message) || "Login failed.";
  error.hidden = false;
});
