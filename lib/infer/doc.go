// Package infer is the contract every port-mapping inference method
// implements, modelled on gonum's optimize package: one Problem (what to
// infer: the instructions, the number of ports, the oracle to ask and the
// measurements already at hand), one Method interface that PMEvo, PALMED,
// counter-example-guided SMT inference and the counter-based methods
// implement, each in its own package below this one, one Infer function
// that runs any of them and one Result: the inferred mapping, how it
// predicts, the oracle queries it cost, the time it took and a
// method-specific report that renders itself.
//
// Infer counts the queries by wrapping the problem's oracle, times the run
// and fills in what every method shares, so a method only infers. When the
// context is cancelled a method returns the best result it has together
// with the context's error, so that an interrupted run can still be
// evaluated. Methods register under a name (Register, New, Methods): the
// command line runs them as "portlab infer NAME", and a method whose
// settings can be set from the command line implements FlagSetter. The
// package example is a whole (toy) method in a few lines, the shape the
// real ones follow.
package infer
