/**
 * The Java client of the Keyhaven public API (which is Turnkey's wire format, so it also works against the real
 * service): API-key stampers for the three curves and a small typed client.
 */
package dev.keyhaven.client;
