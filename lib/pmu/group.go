package pmu

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Spec is a perf event to count: a perf_event_attr type (0 hardware, 1
// software, 4 raw) and config, under a name.
type Spec struct {
	Name   string
	Type   uint32
	Config uint64
}

// The events portlab counts. Cycles and Instructions are the kernel's
// generic hardware events; TaskClock (nanoseconds the thread ran) and
// ContextSwitches are software events the kernel offers without a PMU,
// which lets the plumbing be tested on hosts without one.
var (
	Cycles          = Spec{Name: "cycles", Type: 0, Config: 0}
	Instructions    = Spec{Name: "instructions", Type: 0, Config: 1}
	TaskClock       = Spec{Name: "task-clock", Type: 1, Config: 1}
	ContextSwitches = Spec{Name: "context-switches", Type: 1, Config: 3}
)

// UopsName is the name of the retired-µop event RetiredUops returns.
const UopsName = "uops"

// RetiredUops returns the raw event that counts retired µops on this
// host's processor, from /proc/cpuinfo: Intel family 6 UOPS_RETIRED
// (event 0xC2; umask 0x01 .ALL up to Coffee Lake, 0x02 .SLOTS from Ice
// Lake, which portlab cannot tell apart by family, so it uses 0x02, which
// Skylake also has as RETIRE_SLOTS), AMD families 17h–1Ah "Retired Ops"
// (PMCx0C1; on Zen it counts macro-ops, see infer/explainable's
// Postulate 6.5). These encodings come from the vendors' manuals and are
// untested: portlab's development machines have no PMU.
func RetiredUops() (Spec, error) {
	vendor, family, err := cpuID()
	if err != nil {
		return Spec{}, err
	}
	switch {
	case vendor == "GenuineIntel" && family == 6:
		return Spec{Name: UopsName, Type: 4, Config: 0x02<<8 | 0xC2}, nil
	case vendor == "AuthenticAMD" && family >= 0x17 && family <= 0x1A:
		return Spec{Name: UopsName, Type: 4, Config: 0xC1}, nil
	}
	return Spec{}, fmt.Errorf("pmu: no retired-µop event known for %s family %#x", vendor, family)
}

// cpuID reads the vendor and family of the first processor in
// /proc/cpuinfo.
func cpuID() (vendor string, family int, err error) {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return "", 0, fmt.Errorf("pmu: %w", err)
	}
	defer f.Close()
	family = -1
	sc := bufio.NewScanner(f)
	for sc.Scan() && (vendor == "" || family < 0) {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		switch strings.TrimSpace(k) {
		case "vendor_id":
			vendor = strings.TrimSpace(v)
		case "cpu family":
			if family, err = strconv.Atoi(strings.TrimSpace(v)); err != nil {
				return "", 0, fmt.Errorf("pmu: /proc/cpuinfo: cpu family %q", v)
			}
		}
	}
	if vendor == "" || family < 0 {
		return "", 0, fmt.Errorf("pmu: /proc/cpuinfo names no vendor or family")
	}
	return vendor, family, nil
}
