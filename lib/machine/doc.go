// Package machine describes machines as data: one Machine holds what the
// simulated oracle, the exact predictor and a block simulator need to
// behave like a processor — its port mapping, its front end, what its
// counters count, and, for a simulator in the style of Gus (Pompougnac,
// Dutilleul, Guillon, Derumigny and Rastello, "Performance bottlenecks
// detection through microarchitectural sensitivity", arXiv:2402.15773,
// 2024), latencies per form and operand pair, the reorder buffer, issue
// and retire widths and the load and store ports. Those last fields are
// defined and validated now and empty for the machines that lack them.
//
// Lookup resolves a name: a built-in machine (ZenPlusLikeName, the
// simulated Zen+-like machine of Ritter's thesis, Ch. 6), a machine file,
// or any mapping name or file package dataset resolves, as a machine with
// just that mapping. Oracle and Predictor turn a machine into a simulated
// oracle and an exact predictor (package oracle), with its front-end bound
// (package throughput) and its µop counter.
//
// What the total-µop counter counts is a property of the machine
// (Counters): µops, or macro-ops as AMD's Zen counter counts them, where
// a form counts its µops less the ones Postulate 6.5 of the thesis leaves
// uncounted (UncountedUops), except the forms Counters.Counted lists.
//
// Override (ReadOverride) applies a file of values set by hand to a
// machine, such as the corrections of a description tuned on measured
// blocks, so that a description written again from new measurements
// keeps them (format OverrideFormat).
//
// # Format
//
// A machine file is a JSON object (Read, Parse, Write). Unknown fields are
// errors, and so are missing required fields and bad values; every error
// names the file and the field, e.g.
//
//	zen.json: frontEnd.instructionsPerCycle: must be > 0
//
// The fields:
//
//	format         required: "portlab.machine/v1"
//	name           required: the machine's name
//	vendor         the maker of the machine modelled
//	description    what the machine is and where its numbers come from
//	mapping        required: the port mapping, inline (an object in any
//	               format portmap.DecodeMapping reads, e.g.
//	               "portlab.mapping/v1"), or a string: a built-in machine's
//	               name (its mapping), a data-set name ("pmevo:ZEN/pmevo",
//	               "uops.info:ZEN+") or a mapping file's path, relative to
//	               the machine file's directory
//	frontEnd       the front end's bound; absent: none
//	  instructionsPerCycle  required, > 0: the peak in instructions per cycle
//	  uopsPerCycle          > 0: the peak in µops per cycle
//	  decodeWidth           > 0: instructions decoded per cycle
//	counters       what the counters count; absent: µops
//	  uops                  required: "uops" or "macro-ops"
//	  counted               {form: count ≥ 0}: the forms that count otherwise
//	latencies      {form: {"cycles": ≥ 0, "operands": [{"from": i, "to": j,
//	               "cycles": ≥ 0}]}}: operands i and j index the form's
//	               operands as isa.ParseScheme lists them (explicit, then
//	               implicit)
//	reorderBuffer  > 0: µops in the reorder buffer
//	issueWidth     > 0: µops issued per cycle
//	retireWidth    > 0: µops retired per cycle
//	loadPorts      the mapping's ports that execute loads
//	storePorts     the mapping's ports that execute stores
//	memory         how values travel through memory; absent: not described
//	  loadLatency           ≥ 0: the load-to-use latency form latencies include
//	  storeForwardLatency   ≥ 0: store data to a forwarded load's result
//	  vectorStoreForwardLatency  ≥ 0: the same into a vector register
//	  renaming              true: a load of a stored general-purpose
//	                        register through the same registers reads it
//	  renamingBy            "address": through any registers holding the
//	                        store's address; absent: the same registers
//	mergeLatency   ≥ 0: a legacy-SSE write of an XMM register merges into
//	               its old value with this latency
//	mergeWhen      "dirty-upper": only in a loop that writes a YMM or ZMM
//	               register with VEX or EVEX and runs no vzeroupper;
//	               absent: always
//	addressIncrementLatency  > 0: cycles of adding a constant to a register
//	               the block uses as an address
//	complexLEALatency  > 0: cycles of an lea that adds base, index and
//	               displacement
//	complexLEAFrom "base": complexLEALatency from the base register only;
//	               absent: from every register input
//	chains         [{"forms": [form, …], "cycles": ≥ 0}]: an instruction of
//	               the forms reading a register another of them wrote takes
//	               cycles from it instead of its latency
//	fusions        [{"first": [form, …], "second": [form, …]}]: an
//	               instruction of a first form directly followed by one of
//	               a second form that reads and writes the register the
//	               first writes take one front-end slot together
//	wakeup         {"forms": [form, …], "cost": ≥ 1}: an instruction of the
//	               forms reading a register that a head (an instruction of
//	               the forms reading none that another of them wrote before
//	               it) wrote in the same iteration holds its µops'
//	               resources cost times as long
//
// Forms named in counters.counted and latencies must be mapped. An example
// (the built-in machines are in the folder machines):
//
//	{
//	  "format": "portlab.machine/v1",
//	  "name": "small",
//	  "vendor": "AMD",
//	  "mapping": {"format": "portlab.mapping/v1", "name": "small", "ports": ["0", "1", "2"], "instructions": [
//	    {"name": "add RW:GPR:32, R:GPR:32", "uops": [{"count": 1, "ports": ["0", "1"]}]},
//	    {"name": "add RW:GPR:32, dword ptr R:MEM(32)", "uops": [{"count": 1, "ports": ["0", "1"]}, {"count": 1, "ports": ["2"]}]}
//	  ]},
//	  "frontEnd": {"instructionsPerCycle": 4},
//	  "counters": {"uops": "macro-ops"},
//	  "latencies": {"add RW:GPR:32, R:GPR:32": {"cycles": 1, "operands": [{"from": 1, "to": 0, "cycles": 1}]}},
//	  "reorderBuffer": 192,
//	  "loadPorts": ["2"]
//	}
package machine
