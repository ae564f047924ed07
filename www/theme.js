// The inspector's colour theme: the system's (prefers-color-scheme) until the "Dark theme"
// button picks one, which this browser then remembers (localStorage). A classic script in the
// head, run before the body is drawn: a remembered choice shows without a flash of the other
// theme. It sets `data-theme` ("light" or "dark") on <html>; inspector.css does the rest.
(() => {
  const KEY = "mcp-tasks-inspector/theme";
  const root = document.documentElement;
  const system = window.matchMedia("(prefers-color-scheme: dark)");
  let chosen = null;
  try {
    const v = localStorage.getItem(KEY);
    chosen = v === "dark" || v === "light" ? v : null;
  } catch {
    chosen = null; // storage blocked: the system's theme
  }
  const current = () => chosen ?? (system.matches ? "dark" : "light");
  function apply() {
    const theme = current();
    root.dataset.theme = theme;
    const button = document.getElementById("theme-toggle");
    if (button) button.setAttribute("aria-pressed", String(theme === "dark"));
  }
  apply();
  system.addEventListener("change", apply);
  document.addEventListener("DOMContentLoaded", () => {
    apply();
    document.getElementById("theme-toggle")?.addEventListener("click", () => {
      chosen = current() === "dark" ? "light" : "dark";
      try {
        localStorage.setItem(KEY, chosen);
      } catch {
        // storage blocked: the choice lasts until the page is left
      }
      apply();
    });
  });
})();
