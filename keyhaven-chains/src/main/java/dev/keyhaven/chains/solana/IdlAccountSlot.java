package dev.keyhaven.chains.solana;

/**
 * One account an IDL instruction expects, in order, with nested account groups flattened.
 *
 * @param name the IDL's name for it; the dotted path through its groups when another account of the instruction has
 *     the same name
 * @param optional whether Anchor accepts it absent (the client then passes the program's own id in its place)
 */
record IdlAccountSlot(String name, boolean optional) {}
