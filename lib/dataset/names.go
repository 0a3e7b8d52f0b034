package dataset

import (
	"fmt"
	"strings"

	"github.com/portlab/portlab/lib/portmap"
)

// Names describes the names Mapping and Experiments understand, and the
// built-in machine package machine adds to them, for usage texts.
const Names = `M and E are file paths (portlab or PMEvo JSON; campaign files .jsonl, .jsonl.gz) or data-set names:
  pmevo:SKL/uops_info  pmevo:SKL/pmevo  pmevo:ZEN/pmevo  pmevo:A72/pmevo   (mappings)
  uops.info:ICL  uops.info:SKL  uops.info:ZEN+ …                          (uops.info port usage)
  pmevo:SKL/eval_small  pmevo:ZEN/singletons  pmevo:SKL/len_05 …          (experiment sets)
  portlab:zenplus-like   (a simulated Zen+-like machine: mapping, peak 5 IPC, macro-op counter)`

// Mapping returns the mapping a name stands for: "pmevo:ARCH/WHICH" (a
// mapping of the PMEvo artifact, see PMEvoMapping), "uops.info:UARCH" (the
// uops.info port usage of a microarchitecture, see UopsInfo), or else the
// path of a mapping file in any format portmap.ReadMapping reads.
// Notebooks and the portlab command use the same names; machine names
// such as "portlab:zenplus-like" (Names lists it) are resolved by
// package machine, which reads mappings through this function.
func Mapping(name string) (*portmap.Mapping, error) {
	switch {
	case strings.HasPrefix(name, "pmevo:"):
		arch, which, ok := strings.Cut(strings.TrimPrefix(name, "pmevo:"), "/")
		if !ok {
			return nil, fmt.Errorf("dataset: mapping %q: want pmevo:ARCH/WHICH, e.g. pmevo:SKL/uops_info", name)
		}
		return PMEvoMapping(arch, which)
	case strings.HasPrefix(name, "uops.info:"):
		return UopsInfo(strings.TrimPrefix(name, "uops.info:"))
	}
	return portmap.ReadMapping(name)
}

// Experiments returns the measured experiments a name stands for:
// "pmevo:ARCH/SET" (an experiment set of the PMEvo artifact, see
// PMEvoExperiments; "pmevo:SKL/len_NN" for the experiments of length NN,
// see VaryingLength), or else the path of an experiment file —
// portlab or PMEvo JSON, or a campaign file (.jsonl, .jsonl.gz) whose
// failed experiments are left out (see portmap.ReadExperiments).
func Experiments(name string) (*portmap.ExperimentSet, error) {
	if strings.HasPrefix(name, "pmevo:") {
		arch, set, ok := strings.Cut(strings.TrimPrefix(name, "pmevo:"), "/")
		if !ok {
			return nil, fmt.Errorf("dataset: experiments %q: want pmevo:ARCH/SET, e.g. pmevo:SKL/eval_small", name)
		}
		var n int
		if _, err := fmt.Sscanf(set, "len_%d", &n); err == nil && strings.EqualFold(arch, "SKL") {
			return VaryingLength(n)
		}
		return PMEvoExperiments(arch, set)
	}
	return portmap.ReadExperiments(name)
}
