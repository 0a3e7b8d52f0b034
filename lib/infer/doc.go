// Package infer is the contract every port-mapping inference method
// implements, modelled on gonum's optimize package (Method.Uses, Settings,
// Result.Status): one Problem (what to infer: the instructions, the number
// of ports, the oracle to ask and the measurements already at hand), one
// Method interface that PMEvo, PALMED, counter-example-guided SMT inference
// and the counter-based methods implement, each in its own package below
// this one, one Infer function that runs any of them and one Result: the
// inferred mapping, how it predicts, the oracle queries it cost, the time
// it took, why it stopped (Status) and a method-specific Report that
// renders itself.
//
// # The prologue
//
// A method declares what it needs (Uses returns Needs: an oracle to ask,
// the number of ports, the total µop counter, per-port µop counters), and
// Infer does the whole prologue before the method asks anything: it checks
// the method's configuration (Validate, for Configured methods) and the
// problem, fills in the instructions from Problem.Data, answers from a
// replay of Problem.Data when the method asks and there is no oracle,
// names the ports "0", "1", … when the problem names none, and switches on
// the counters the method reads through the oracle's capabilities
// (oracle.UopCounter, oracle.PortUopCounter) — or refuses with an error
// that names what is missing and how to get it. A notebook can therefore
// run any method on data alone as the command line does.
//
// # Limits, status and interruption
//
// Infer then counts the queries, applies the settings' limits (TimeLimit
// as the context's deadline, MaxQueries as a budget that cancels the run
// when it is spent), times the run, passes progress on in one form
// (Settings.Notify) and sets Result.Status: Converged, IterationLimit,
// TimeLimit, QueryLimit, Interrupted, NoFit, Undecided or Failed. When the
// caller's context is cancelled a method returns the best result it has
// together with the context's error, so that an interrupted run can still
// be evaluated; a run stopped by the settings' limits returns its best
// result without error; a run without a result returns a *StopError with
// its Status (StatusOf reads it from any of Infer's errors).
//
// # Names, settings and reports
//
// Methods register under a name (Register, New, Methods): the command
// line runs them as "portlab infer NAME". A method's settings are the
// tagged fields of its configuration struct; BindFlags makes them flags
// (with their ranges checked as they are parsed, before any oracle is
// asked) and its named presets (e.g. pmevo's "paper", cegis's "thesis")
// boolean flags. Every report implements Report (text, HTML built with
// HTML, files) and the counter-based methods account for each instruction
// with one type (package infer/account). The package example is a whole
// (toy) method in a few lines, the shape the real ones follow.
package infer
