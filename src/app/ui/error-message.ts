import { ApiRequestError, InvalidResponseError, NetworkError } from '../../client/errors';

/** What to tell people about a failed request, per kind of failure. */
export function errorMessage(error: unknown): { title: string; detail: string } {
  if (error instanceof NetworkError) {
    return {
      title: 'The server could not be reached.',
      detail: `${error.message} Check your connection, then try again.`,
    };
  }
  if (error instanceof InvalidResponseError) {
    return {
      title: 'The server sent something this app cannot read.',
      detail: `${error.problem} The server at ${hostOf(error.url)} may not follow the records API.`,
    };
  }
  if (error instanceof ApiRequestError && error.status === 401) {
    // A private mirror refused the token (or got none): trying again will not help, the configuration will.
    return {
      title: 'This server needs a valid access token.',
      detail: `${error.apiError?.errorDescription ?? 'It sent no explanation.'} (401${error.apiError ? ` ${error.apiError.statusMessage}` : ''}) The app sends the token named in its config.json; ask whoever runs this server for the right one.`,
    };
  }
  if (error instanceof ApiRequestError) {
    const status = error.apiError ? `${error.status} ${error.apiError.statusMessage}` : String(error.status);
    return {
      title: error.status >= 500 ? 'The server had a problem with this request.' : 'The server refused this request.',
      detail: `${error.apiError?.errorDescription ?? 'It sent no explanation.'} (${status})`,
    };
  }
  return { title: 'Something went wrong.', detail: error instanceof Error ? error.message : String(error) };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
