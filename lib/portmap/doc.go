// Package portmap models port mappings: how an out-of-order processor splits
// instructions into µops and which execution ports can run each µop (PMEvo,
// PLDI 2020, §3; Ritter's thesis Ch. 3). An Architecture names the ports (at most
// 64, so that a set of ports is a 64-bit PortSet) and the instruction forms.
// A Mapping gives each instruction a multiset of µops, each µop identified
// by the set of ports that can execute it (thesis Remark 3.13): the general
// three-level mapping instruction → µops → ports. A two-level mapping
// (instruction → ports, thesis Def. 3.2) is the special case of one µop per
// instruction. An Experiment is a multiset of instructions — order and
// dependencies are abstracted away — kept in canonical form so that its Key
// identifies it; an ExperimentSet holds measured experiments (Measurement:
// cycles per execution of the multiset, the spread of the timings and µop
// counts where the oracle knows them, plus other tools' stored
// predictions). Throughput itself is computed by package throughput.
//
// Mappings and experiments are read and written in three formats. portlab's
// own JSON is self-describing and keeps instruction order:
//
//	{"format": "portlab.mapping/v1", "name": "toy", "ports": ["p1", "p2", "p3"],
//	 "instructions": [{"name": "add", "uops": [{"count": 1, "ports": ["p1", "p2"]}]},
//	                  {"name": "nop", "uops": []}]}
//
//	{"format": "portlab.experiments/v1", "arch": {"name": "toy", "ports": […], "instructions": […]},
//	 "experiments": [{"insns": {"add": 2, "mul": 1}, "cycles": 1.5, "others": {"IACA": 2}}]}
//
// PMEvo's artifact JSON ("kind": "Mapping3", "Mapping2", "ExperimentList") is
// read and written as is, the campaign files of package measure (JSON lines,
// one Record per experiment after a Header with the machine's fingerprint, see
// ReadCampaign and Shard) are read as experiment sets, and uops.info port notation ("1*p0156+2*p23",
// "1*FP23", "[ALU0,ALU1]") is parsed and printed by ParseUsage and
// FormatUsage; UopsInfoMapping builds a mapping for one microarchitecture from
// the iwho extract of uops.info. Bad input yields a *FormatError naming the
// file and the line and column (malformed JSON) or the JSON path (bad values)
// — e.g. `exps[12].iseq[3]: unknown instruction "FOO"` — never a silent
// default. EquivalentByRenaming decides whether two mappings differ only by
// the names of their ports, so that they predict the same for every
// experiment (thesis Def. 3.16, Fig. 3.9).
package portmap
