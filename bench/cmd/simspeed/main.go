// Command simspeed measures the speed of the block simulator (package
// sim) on the host block corpus: simulated instructions per second on one
// core, the measure of Gus (Dutilleul et al., 2024, §5, which reports
// 1.23 million for Gus and 0.11 million for gem5).
//
// Usage:
//
//	go run ./bench/cmd/simspeed [-machine M] [-blocks FILES] [-rounds R] [-cpuprofile FILE]
//
// Every block of the files (comma-separated; default both parts of
// bench/blocks) that the machine maps is simulated to its steady state
// (Simulator.Simulate: compiling the block, iterating, detecting the
// period), with GOMAXPROCS=1. The simulated instructions are the
// instructions of a block times the iterations simulated. Each round
// simulates every block once; the fastest of R rounds is reported, with
// the median, per second of the process's CPU time (user and system, so
// the garbage collector counts) and of wall-clock time: on a shared
// machine the first is the simulator's speed, the second also waits for
// the other processes, whose load average is printed. Blocks the machine
// does not map are counted and left out. The steady state alone
// (without compiling) and parsing included are measured by
// BenchmarkCorpus of package sim.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/portlab/portlab/lib/block"
	"github.com/portlab/portlab/lib/dataset"
	"github.com/portlab/portlab/lib/machine"
	"github.com/portlab/portlab/lib/sim"
	"github.com/portlab/portlab/lib/source"
)

func main() {
	mach := flag.String("machine", "", "simulated machine (built-in name, machine file or mapping name; default: sim.TestMachine's front end, reorder buffer and latencies on the uops.info Ice Lake mapping)")
	files := flag.String("blocks", "bench/blocks/tune.csv,bench/blocks/heldout.csv", "block files, comma-separated")
	rounds := flag.Int("rounds", 5, "rounds over all blocks")
	prof := flag.String("cpuprofile", "", "write a CPU profile of the timed rounds to this file")
	flag.Parse()
	runtime.GOMAXPROCS(1)
	if err := run(context.Background(), *mach, strings.Split(*files, ","), *rounds, *prof); err != nil {
		fmt.Fprintln(os.Stderr, "simspeed:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, mach string, files []string, rounds int, prof string) error {
	if rounds < 1 {
		return fmt.Errorf("-rounds %d: want at least 1", rounds)
	}
	m, err := lookup(mach)
	if err != nil {
		return err
	}
	s, err := sim.New(m, sim.Options{})
	if err != nil {
		return err
	}
	var blocks []*block.Block
	for _, f := range files {
		src, err := source.ParseBlocks(f, 1)
		if err != nil {
			return err
		}
		set, bad, err := src.Load(ctx, nil)
		if err != nil {
			return err
		}
		if bad > 0 {
			fmt.Printf("%s: %d lines not understood, left out\n", f, bad)
		}
		blocks = append(blocks, set.Blocks...)
	}
	var ok []*block.Block
	unmapped, noSteady := 0, 0
	for _, b := range blocks {
		r, err := s.Simulate(b)
		switch {
		case err != nil:
			unmapped++
		case !r.Converged:
			noSteady++
			ok = append(ok, b) // simulated all the same: it counts
		default:
			ok = append(ok, b)
		}
	}
	fmt.Printf("machine %s: %d blocks, %d simulated (%d without a steady state within the iteration limit), %d not mapped\n",
		m.Name, len(blocks), len(ok), noSteady, unmapped)
	if len(ok) == 0 {
		return fmt.Errorf("no block simulated")
	}
	if prof != "" {
		f, err := os.Create(prof)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	load0 := loadAverage()
	var rates, cpuRates []float64
	var insns, iters int
	for range rounds {
		insns, iters = 0, 0
		start := time.Now()
		cpu0 := cpuTime()
		for _, b := range ok {
			r, err := s.Simulate(b)
			if err != nil {
				return err
			}
			insns += r.Iterations * len(b.Insns)
			iters += r.Iterations
		}
		rates = append(rates, float64(insns)/time.Since(start).Seconds())
		cpuRates = append(cpuRates, float64(insns)/(cpuTime()-cpu0).Seconds())
	}
	slices.Sort(rates)
	slices.Sort(cpuRates)
	fmt.Printf("per round: %d simulated instructions in %d iterations (%.0f iterations per block on average)\n",
		insns, iters, float64(iters)/float64(len(ok)))
	fmt.Printf("simulated instructions per second of CPU time (GOMAXPROCS=1): best %.2f M, median %.2f M of %d rounds (goal 10 M; Gus 1.23 M, gem5 0.11 M)\n",
		cpuRates[len(cpuRates)-1]/1e6, cpuRates[len(cpuRates)/2]/1e6, rounds)
	fmt.Printf("per second of wall-clock time: best %.2f M, median %.2f M (lower when the machine is shared)\n",
		rates[len(rates)-1]/1e6, rates[len(rates)/2]/1e6)
	if load0 != "" {
		fmt.Printf("load average (1, 5, 15 min) before the rounds %s, after %s\n", load0, loadAverage())
	}
	return nil
}

// loadAverage returns the machine's load averages over 1, 5 and 15
// minutes (Linux's /proc/loadavg), "" where it cannot be read: the
// other processes the rounds shared the machine with.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}

// lookup returns the machine named, or for "" sim.TestMachine's front
// end, reorder buffer, retire width and latencies on the uops.info Ice
// Lake mapping, which maps most of the corpus: a machine with every part
// the simulator models, as a host description has them.
func lookup(name string) (*machine.Machine, error) {
	if name != "" {
		return machine.Lookup(name)
	}
	m := sim.TestMachine()
	icl, err := dataset.UopsInfo("ICL")
	if err != nil {
		return nil, err
	}
	m.Name, m.Mapping, m.MappingSource = "test machine on uops.info:ICL", icl, "uops.info:ICL"
	for k := range m.Latencies {
		if _, ok := icl.Uops(k); !ok {
			delete(m.Latencies, k)
		}
	}
	return m, nil
}

// cpuTime returns the CPU time (user and system) the process has used:
// on a shared machine the time the simulation actually ran.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
