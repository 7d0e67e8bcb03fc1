// @ts-check
// A worker thread's entry (bundleThread in bundle-loader.js): runs the bundle named by its last argument.
import { pathToFileURL } from 'node:url';
import { loadBundle } from './bundle-loader.js';

loadBundle(pathToFileURL(/** @type {string} */ (process.argv.at(-1))));
