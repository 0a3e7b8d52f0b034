package dataset

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/portlab/portlab/lib/portmap"
)

// pmevoArchs are the architectures of the PMEvo artifact: Intel Skylake,
// AMD Zen+ and ARM Cortex-A72.
var pmevoArchs = []string{"SKL", "ZEN", "A72"}

// pmevoSets are the experiment sets of the PMEvo artifact ("eval" exists
// only for ZEN).
var pmevoSets = []string{"singletons", "eval_small", "eval_small_annotated", "eval_tiny", "eval"}

// pmevoMappings are the mappings of the PMEvo artifact ("uops_info"
// exists only for SKL).
var pmevoMappings = []string{"pmevo", "uops_info"}

// UopsInfoFile is the manifest name of the iwho uops.info extract.
const UopsInfoFile = "iwho/x86_uops_info_features.json"

func pmevoArch(arch string) (string, error) {
	a := strings.ToUpper(strings.TrimSpace(arch))
	if !slices.Contains(pmevoArchs, a) {
		return "", fmt.Errorf("dataset: unknown PMEvo architecture %q (valid: %s)", arch, strings.Join(pmevoArchs, ", "))
	}
	return a, nil
}

// PMEvoMapping loads the port mapping which ("pmevo": inferred by PMEvo;
// "uops_info": uops.info's, SKL only) of the PMEvo architecture arch ("SKL",
// "ZEN", "A72"), from pmevo-artifact/<arch>/mapping_<which>.json.
func PMEvoMapping(arch, which string) (*portmap.Mapping, error) {
	a, err := pmevoArch(arch)
	if err != nil {
		return nil, err
	}
	if !slices.Contains(pmevoMappings, which) {
		return nil, fmt.Errorf("dataset: unknown PMEvo mapping %q (valid: %s)", which, strings.Join(pmevoMappings, ", "))
	}
	if which == "uops_info" && a != "SKL" {
		return nil, fmt.Errorf("dataset: PMEvo mapping %q exists only for SKL, not %s", which, a)
	}
	p, err := Path("pmevo-artifact/" + a + "/mapping_" + which + ".json")
	if err != nil {
		return nil, err
	}
	return portmap.ReadMapping(p)
}

// PMEvoExperiments loads the experiment set set ("singletons", "eval_small",
// "eval_small_annotated", "eval_tiny", or "eval" for ZEN only) of the PMEvo
// architecture arch ("SKL", "ZEN", "A72"), from
// pmevo-artifact/<arch>/exps_<set>.json.
func PMEvoExperiments(arch, set string) (*portmap.ExperimentSet, error) {
	a, err := pmevoArch(arch)
	if err != nil {
		return nil, err
	}
	if !slices.Contains(pmevoSets, set) {
		return nil, fmt.Errorf("dataset: unknown PMEvo experiment set %q (valid: %s)", set, strings.Join(pmevoSets, ", "))
	}
	if set == "eval" && a != "ZEN" {
		return nil, fmt.Errorf("dataset: PMEvo experiment set %q exists only for ZEN, not %s (use eval_small)", set, a)
	}
	p, err := Path("pmevo-artifact/" + a + "/exps_" + set + ".json")
	if err != nil {
		return nil, err
	}
	return portmap.ReadExperiments(p)
}

// VaryingLength loads the SKL experiments of length n (1..15) with IACA and
// uops.info predictions, from pmevo-artifact/SKL/varying_length/len_NN.json.
func VaryingLength(n int) (*portmap.ExperimentSet, error) {
	if n < 1 || n > 15 {
		return nil, fmt.Errorf("dataset: varying-length experiments: length %d, want 1..15", n)
	}
	p, err := Path(fmt.Sprintf("pmevo-artifact/SKL/varying_length/len_%02d.json", n))
	if err != nil {
		return nil, err
	}
	return portmap.ReadExperiments(p)
}

type schemesEntry struct {
	once    sync.Once
	schemes []portmap.UopsInfoScheme
	err     error
}

var (
	schemesMu    sync.Mutex
	schemesCache = map[string]*schemesEntry{} // by file path
)

// UopsInfoSchemes loads the uops.info port usage of every instruction scheme
// from the iwho extract, sorted by scheme name. The parsed file is cached in
// memory (per file path); the returned slice is fresh but the schemes'
// variants are shared, so treat them as read-only.
func UopsInfoSchemes() ([]portmap.UopsInfoScheme, error) {
	p, err := Path(UopsInfoFile)
	if err != nil {
		return nil, err
	}
	schemesMu.Lock()
	e, ok := schemesCache[p]
	if !ok {
		e = &schemesEntry{}
		schemesCache[p] = e
	}
	schemesMu.Unlock()
	e.once.Do(func() {
		data, err := os.ReadFile(p)
		if err != nil {
			e.err = fmt.Errorf("dataset: %v", err)
			return
		}
		e.schemes, e.err = portmap.DecodeUopsInfoSchemes(p, data)
	})
	if e.err != nil {
		// Do not keep a failure: a later call may succeed.
		schemesMu.Lock()
		if schemesCache[p] == e {
			delete(schemesCache, p)
		}
		schemesMu.Unlock()
		return nil, e.err
	}
	return slices.Clone(e.schemes), nil
}

// UopsInfoArchitectures returns the microarchitectures of the uops.info
// extract, sorted: "BDW", "CFL", ..., "ZEN+", "ZEN2", "ZEN3".
func UopsInfoArchitectures() ([]string, error) {
	s, err := UopsInfoSchemes()
	if err != nil {
		return nil, err
	}
	return portmap.UopsInfoArchitectures(s), nil
}

// UopsInfo returns the three-level uops.info port mapping of the
// microarchitecture uarch (e.g. "ICL", "SKL", "ZEN+"), over the iwho scheme
// names (e.g. "add RW:GPR:64, R:GPR:64"). The mapping is fresh: callers may
// modify it.
func UopsInfo(uarch string) (*portmap.Mapping, error) {
	s, err := UopsInfoSchemes()
	if err != nil {
		return nil, err
	}
	archs := portmap.UopsInfoArchitectures(s)
	if !slices.Contains(archs, uarch) {
		return nil, fmt.Errorf("dataset: unknown uops.info microarchitecture %q (available: %s)", uarch, strings.Join(archs, ", "))
	}
	return portmap.UopsInfoMapping(s, uarch)
}
