package conformance

// Sample is the fixed list of programs TestSample runs, picked from
// results.tsv across the classes (evenly spaced within each, faster than
// 1.5 s in a session, none using goroutines, time, sync or the runtime
// package so that the outcome is deterministic — but for recover1.go, a
// death) and none that hangs, as a hang costs the whole timeout.
var Sample = []string{
	"abi/convF_criteria.go",        // same
	"abi/many_intstar_input.go",    // same
	"abi/struct_3_string_input.go", // same
	"fixedbugs/issue21808.go",      // same
	"fixedbugs/issue30956.go",      // same
	"fixedbugs/issue49145.go",      // same
	"fixedbugs/issue59572.go",      // same
	"fixedbugs/issue70481.go",      // same
	"abi/defer_aggregate.go",       // same
	"fixedbugs/bug005.go",          // same
	"fixedbugs/bug113.go",          // same
	"fixedbugs/bug269.go",          // same
	"fixedbugs/bug456.go",          // same
	"fixedbugs/issue18725.go",      // same
	"fixedbugs/issue27289.go",      // same
	"fixedbugs/issue46304.go",      // same
	"fixedbugs/issue68322.go",      // same
	"fixedbugs/issue8139.go",       // same
	"ken/interfun.go",              // same
	"typeparam/issue47258.go",      // same
	"const.go",                     // refusal
	"fixedbugs/issue11945.go",      // refusal
	"fixedbugs/issue53619.go",      // refusal
	"iota.go",                      // refusal
	"typeparam/boundmethod.go",     // refusal
	"typeparam/issue48030.go",      // refusal
	"typeparam/issue50264.go",      // refusal
	"typeparam/map.go",             // refusal
	"abi/fibish_closure.go",        // wrong
	"fixedbugs/bug454.go",          // wrong
	"fixedbugs/issue31546.go",      // wrong
	"fixedbugs/issue67190.go",      // wrong
	"reflectmethod4.go",            // wrong
	"const7.go",                    // not-importable
	"fixedbugs/issue33555.go",      // not-importable
	"abi/part_live.go",             // skipped
	"fixedbugs/issue40954.go",      // skipped
	"recover1.go",                  // death
	"helloworld.go",                // same
	"closure2.go",                  // wrong
}
