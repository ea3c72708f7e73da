/**
 * TVC (Turnkey Verifiable Cloud) manifests and their approvals: operators (each with a P-256 public key), operator
 * sets with a threshold, apps (a manifest set and a share set), deployments (each with its manifest, stored as JSON
 * text with its SHA-256) and the operators' approvals of a manifest, each a signature over the manifest hash. Running
 * the deployed image is out of scope: the approval record is the product.
 */
package dev.keyhaven.server.tvc;
