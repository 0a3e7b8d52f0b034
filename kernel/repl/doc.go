// Package repl is the kernel's terminal front end, beside the Jupyter
// one of package kernel: Run reads cells from a terminal (line editing,
// tab completion from the session, a history file) or from a pipe,
// executes them in a session.Session, prints what they write and their
// values, and saves the images and HTML they show to files whose paths it
// prints. The program that runs it hands the session its packages through
// Options.Host, as it does to the Jupyter kernel; `portlab repl` hands it
// the library.
package repl
