// Package z3 drives the Z3 SMT solver (github.com/Z3Prover/z3) as a
// subprocess, "z3 -in", speaking SMT-LIB 2 over its standard input and
// output: a Session declares and asserts, opens and closes scopes with Push
// and Pop for incremental solving, checks satisfiability and reads the
// values of a model. It is the solver behind counter-example-guided port
// mapping inference (package infer/cegis); portlab contains no solver of its
// own.
//
// A Session remembers what was asserted in each open scope, so that it
// survives the loss of its process: when a check is cancelled through its
// context or runs past the session's time limit, or when z3 crashes, the
// process is killed and the check returns an error (ErrTimeout, ErrCrashed
// or the context's error), and the next call starts a new z3 and replays
// the scopes. The z3 binary is looked up on PATH (Options.Path overrides
// it); when it is missing Start returns ErrNotInstalled, naming the Debian
// and conda packages, both called z3.
package z3
