/**
 * JDBC storage: the embedded SQLite store and PostgreSQL behind one set of portable migrations, the transactor
 * that gives each activity one transaction, and the implementations of the feature repositories. Only the wiring
 * in {@code app} refers to this package.
 */
package dev.keyhaven.server.store;
