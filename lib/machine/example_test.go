package machine_test

import (
	"context"
	"fmt"
	"log"

	"github.com/portlab/portlab/lib/machine"
	"github.com/portlab/portlab/lib/portmap"
)

func ExampleLookup() {
	zen, err := machine.Lookup(machine.ZenPlusLikeName)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(zen)
	// A memory-source add: two µops (ALU and load), one macro-op counted.
	const add = "add RW:GPR:32, dword ptr R:MEM(32)"
	fmt.Println(zen.Mapping.Usage(add), "counts", zen.Counted()[add])
	m, err := zen.Oracle(0, 1).Measure(context.Background(), portmap.NewExperiment().With(add, 6))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.Cycles, "cycles,", m.Uops, "macro-ops counted") // 6 loads on 2 AGUs
	// Output:
	// portlab:zenplus-like: 162 instructions on 10 ports, peak 5 instructions per cycle, µop counter counts macro-ops (87 instructions count fewer than their µops)
	// 1*p45+1*p6789 counts 1
	// 3 cycles, 6 macro-ops counted
}

func ExampleParse() {
	m, err := machine.Parse([]byte(`{
  "format": "portlab.machine/v1",
  "name": "two ALUs",
  "mapping": {"format": "portlab.mapping/v1", "name": "alu", "ports": ["0", "1"], "instructions": [
    {"name": "add RW:GPR:64, R:GPR:64", "uops": [{"count": 1, "ports": ["0", "1"]}]}
  ]},
  "frontEnd": {"instructionsPerCycle": 1.5}
}`), "alu.json")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m)
	// Every error names the file and the field.
	_, err = machine.Parse([]byte(`{"format": "portlab.machine/v1", "name": "x", "mapping": "portlab:zenplus-like", "frontEnd": {"instructionsPerCycle": 0}}`), "zen.json")
	fmt.Println(err)
	// Output:
	// two ALUs: 1 instruction on 2 ports, peak 1.5 instructions per cycle
	// zen.json: frontEnd.instructionsPerCycle: must be > 0
}

func ExampleUncountedUops() {
	// Postulate 6.5: a memory operand of up to 128 bits costs one µop the
	// macro-op counter does not count, a 256-bit one two; loading moves
	// and lea none.
	for _, form := range []string{
		"add RW:GPR:32, dword ptr R:MEM(32)",
		"vpor W:YMM0..15, R:YMM0..15, ymmword ptr R:MEM(256)",
		"mov W:GPR:64, qword ptr R:MEM(64)",
		"mov qword ptr W:MEM(64), R:GPR:64",
	} {
		n, err := machine.UncountedUops(form)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%-52s +%d\n", form, n)
	}
	// Output:
	// add RW:GPR:32, dword ptr R:MEM(32)                   +1
	// vpor W:YMM0..15, R:YMM0..15, ymmword ptr R:MEM(256)  +2
	// mov W:GPR:64, qword ptr R:MEM(64)                    +0
	// mov qword ptr W:MEM(64), R:GPR:64                    +1
}
