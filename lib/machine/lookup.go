package machine

import (
	"embed"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/portlab/portlab/lib/dataset"
)

// ZenPlusLikeName is the name of the simulated Zen+-like machine, built
// like AMD Zen+ as Ritter's thesis (Ch. 6) found it: ten ports (FP pipes
// 0–3, AGUs 4–5 with 5 also the store port, ALUs 6–9, Table 6.2), a front
// end of at most 5 instructions per cycle (§6.3.3), and a µop counter that
// counts macro-ops (§6.3.1, Postulate 6.5, with the 8-bit
// read-modify-write exception of §6.3.5). Its description
// (machines/zenplus-like.json) says how its 162 instruction forms were
// chosen.
const ZenPlusLikeName = "portlab:zenplus-like"

//go:embed machines/*.json
var machineFiles embed.FS

var (
	embeddedOnce  sync.Once
	embeddedFiles map[string]string // machine name → file in machineFiles
)

// embedded returns the names of the built-in machines with their files.
func embedded() map[string]string {
	embeddedOnce.Do(func() {
		embeddedFiles = map[string]string{}
		entries, _ := machineFiles.ReadDir("machines")
		for _, e := range entries {
			file := path.Join("machines", e.Name())
			data, _ := machineFiles.ReadFile(file)
			var head struct {
				Name string `json:"name"`
			}
			if json.Unmarshal(data, &head) == nil && head.Name != "" {
				embeddedFiles[head.Name] = file
			}
		}
	})
	return embeddedFiles
}

// Names returns the names of the built-in machines, sorted.
func Names() []string {
	var names []string
	for name := range embedded() {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// Lookup returns the machine a name stands for, a new copy on every call:
//
//   - a built-in machine (Names: ZenPlusLikeName);
//   - a machine file (see the package documentation), by its path;
//   - any mapping name or file dataset.Mapping resolves ("pmevo:SKL/pmevo",
//     "uops.info:ZEN+", a mapping file): a machine named name with just
//     that mapping — no front-end bound, a µop counter that counts µops.
//
// Other names starting with "portlab:" are errors listing the built-in
// machines.
func Lookup(name string) (*Machine, error) {
	if file, ok := embedded()[name]; ok {
		data, err := machineFiles.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("machine: %w", err)
		}
		return Parse(data, file)
	}
	if strings.HasPrefix(name, "portlab:") {
		return nil, fmt.Errorf("machine: unknown machine %q (have %s)", name, strings.Join(Names(), ", "))
	}
	if isMachineFile(name) {
		return Read(name)
	}
	m, err := dataset.Mapping(name)
	if err != nil {
		return nil, err
	}
	return &Machine{Name: name, Mapping: m, MappingSource: name}, nil
}

// isMachineFile reports whether path is a file tagged with Format.
func isMachineFile(path string) bool {
	if isDataSetName(path) {
		return false
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	var head struct {
		Format string `json:"format"`
	}
	return json.Unmarshal(data, &head) == nil && head.Format == Format
}
