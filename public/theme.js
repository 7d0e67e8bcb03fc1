// The chosen colour theme, applied before the first paint so a dark choice never flashes
// light. A file of its own (not inline) so the page's CSP allows no inline script.
// The key and values are those of src/app/shell/theme-preference.ts.
try {
  var theme = localStorage.getItem('records-explorer:theme');
  if (theme === 'light' || theme === 'dark') document.documentElement.dataset.theme = theme;
} catch (error) {
  // Storage blocked: the system's theme.
}
