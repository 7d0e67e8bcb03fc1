/**
 * Response headers the local server adds beyond the spec. The app reads them where a server
 * sends them and never needs them: an upstream server sends none.
 */

/** On `GET /records/{id}`: `generated` for a demo record made by the corpus generator. */
export const recordOriginHeader = 'X-Record-Origin';
