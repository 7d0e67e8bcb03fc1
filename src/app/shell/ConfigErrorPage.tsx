/** Shown instead of the app when config.json cannot be loaded or is invalid. */
export function ConfigErrorPage({ message }: { message: string }) {
  return (
    <main className="page">
      <h1>The app is not configured correctly</h1>
      <p role="alert">{message}</p>
      <p>
        The file <code>config.json</code> beside the app names each deployment’s API address. Fix it and reload the page.
      </p>
    </main>
  );
}
