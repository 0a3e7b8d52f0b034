package conformance

// Slow explains the programs that time out in a session because the
// interpreter is slow, not because it is stuck: what makes them long and
// how long the session took, measured on a quiet two-core machine
// (November 2026, Go 1.26) by running each whole with a longer timeout or,
// where that would take minutes, a smaller workload and scaling it. A
// hang of a program listed here is reported with the explanation; a hang
// of any other program is not explained away.
var Slow = map[string]string{
	"abi/fibish.go":           "f(40) makes some 3e8 interpreted calls; f(27) took 0.8 s in a session (0.04 s compiled), so f(40) needs about 7 minutes (×φ¹³)",
	"abi/uglyfib.go":          "Fibonacci by mutual recursion of four functions, some 3e8 calls; Fib(27) took 2.1 s in a session, so Fib(40) needs about 18 minutes",
	"copy.go":                 "copy over every length and offset of 40-element slices of five types; finished right in 27 s in a session",
	"fixedbugs/issue13169.go": "1e6 values through a channel, each followed by a 32-deep recursion with 1 KB frames; n = 1000 took 1.5 s in a session, so n = 1e5 needs about 2.5 minutes",
	"fixedbugs/issue16249.go": "4000 recursions up to 1000 deep with a defer each; finished right in 14 s in a session on a quiet machine, over the timeout under load",
	"fixedbugs/issue59680.go": "recursions adding up to 5e7 interpreted calls; finished right in 60 s in a session",
	"fixedbugs/issue79186.go": "256 goroutines of 200,000 map reads and writes under a lock each; 2,000 each took 3.7 s in a session, so the program needs about 6 minutes",
	"fixedbugs/issue80188.go": "four goroutines each make 10,000 calls of a function that builds 40 values and counts two empty loops to 10,000 (8e8 interpreted iterations in all); finished right in 1m57s in a session (3.2 s compiled)",
	"ken/divconst.go":         "divisions by constants of every width, 1e5 times each; finished right in 24 s in a session",
	"ken/modconst.go":         "remainders by constants of every width, 1e5 times each; finished right in 26 s in a session",
}
