// Package conformance measures how much of Go a kernel session runs the way
// the Go toolchain does, with the Go distribution's own test programs.
//
// # What it runs
//
// Every file of $GOROOT/test and its immediate subdirectories whose test
// action (the first line after build constraints) is "// run" — about a
// thousand programs that print what a .out file beside them holds, or must
// run without panicking. Each program runs twice, each time in a process of
// its own with a timeout (10 s by default) and in its own process group:
//
//   - compiled: go build, then the program (skipped when a .out file says
//     what it prints);
//   - in a session: the test binary itself is the child (TestMain calls
//     Child). It opens a session without a host (yaegi's standard library,
//     portlab's additions to it and the display package — the packages
//     Importable lists), evaluates the program as one cell — the source
//     with the package clause blanked, so that lines keep their numbers,
//     and func main renamed (yaegi runs a func main after every later cell)
//     — then a second cell that calls the renamed main. What the cells
//     print on stdout and stderr is one stream, as the test directory's
//     runner compares the combination with the .out file; the session's
//     result comes back on file descriptor 3. The parent kills the child
//     when its resident memory passes 2 GiB (the memory guard).
//
// # Classes
//
//   - same: the session printed exactly what Go prints, without an error
//     (a program ending with os.Exit(0) counts, although the session
//     reports it as an error).
//   - refusal: the session refused the program before it printed anything,
//     with a message — a compile or syntax error, or a panic of yaegi's
//     compiler in the defining cell ("CFG post-order panic", or a message
//     with a line:column position, such as a constant overflow).
//   - stopped: the session ended the program with an InterpreterError —
//     a panic from the interpreter's own machinery (its use of reflect on
//     values it built wrongly, its internal types), which the kernel
//     reports as the interpreter's failure, not as a result — and what it
//     printed before matches the start of Go's output.
//   - wrong: the program ran and printed something else, or the session
//     returned an error (a runtime panic, os.Exit(1) of a failed check)
//     where the compiled program succeeded.
//   - death: the child process died: a fatal runtime error, a signal, an
//     exit without a result, or the memory guard.
//   - hang: no result within the timeout. With -slowtimeout, a program
//     whose session timed out runs there a second time with that longer
//     timeout, and is classified by that run: a program the interpreter
//     merely runs slowly is then same (or what it is), its reason saying
//     how long the second run took, and a hang had no result within the
//     longer timeout either. Without it, a hang includes the slow programs;
//     the reason gives the compiled time and, for the programs Slow lists,
//     what makes them long and how long the session took with a longer
//     timeout or a smaller workload.
//   - not-importable: the program imports packages a session lacks (the
//     reason lists them).
//   - skipped: a rule keeps it from running — arguments on the run line
//     (flags such as -gcflags, -race, program arguments), a build
//     constraint that needs a build setting (cgo, goexperiment) or excludes
//     linux/amd64, cgo, unsafe, //go:linkname or //go:embed — or the
//     compiled program fails or times out on this machine ("reference:").
//
// # Running it
//
// The full table (results.tsv, results.md and the generated section of
// kernel/README.md, between its conformance markers) comes from
//
//	go test ./kernel/conformance -run TestFull -full -timeout 60m -v
//
// which took 17m48s on two shared, busy cores (load 17) with the default two
// programs at once, and 20m43s at load 25 with -workers 5 -progtimeout 20s
// (programs that take seconds compiled there still time out) (-workers,
// -progtimeout change them; -slowtimeout 60m gives a program that timed
// out a second run of up to an hour, which the slowest, abi/uglyfib.go,
// needed 34 minutes of at load 10; -only SUBSTR runs
// the matching programs and writes nothing, as does -names FILE with the
// programs a file lists, one a line; -update with -names reruns those and
// replaces their rows in the tables, which then say which were rerun). TestSample, run by a plain
// go test, reruns the programs of Sample (40, none that hangs) in
// about 20 seconds and fails when one does worse than results.tsv
// says: anything but "same" where the table says same; wrong, death or
// hang where it says refusal or stopped. A program that does better is logged: rerun
// the full table then.
package conformance
