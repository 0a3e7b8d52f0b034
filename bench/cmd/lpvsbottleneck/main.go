// Command lpvsbottleneck compares, in one run, the time to compute the
// inverse throughput of an experiment with the linear program
// (throughput.LP, gonum's simplex method) and with the bottleneck formula
// (throughput.Model.Evaluate), over the axes of PMEvo Fig. 8 / thesis
// Fig. 5.4 and on realistic length-5 cases, and checks that both agree on
// every timed experiment. See package bench for the setup.
//
// Usage:
//
//	go run ./bench/cmd/lpvsbottleneck [-quick] [-csv FILE] [-procs N] [-share F] [-hot D]
//
// The table goes to standard output, progress to standard error. The exit
// status is 1 if LP and the bottleneck formula disagree on any case.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/portlab/portlab/bench"
)

func main() {
	quick := flag.Bool("quick", false, "short run: 2 mappings × 16 experiments per configuration, 128 SKL experiments, 10 ms bottleneck timing")
	csvFile := flag.String("csv", "", "also write the table as CSV to `FILE`")
	procs := flag.Int("procs", 1, "GOMAXPROCS during the run (1: everything, garbage collection included, on one core)")
	share := flag.Float64("share", 0.5, "bottleneck timing after each LP solve, as a `fraction` of the solve's time")
	hot := flag.Duration("hot", 0, "back-to-back bottleneck timing per configuration for evals/s (default 250ms, quick 10ms)")
	flag.Parse()
	if flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	runtime.GOMAXPROCS(*procs)

	opts := bench.Options{Quick: *quick, Share: *share, HotTime: *hot, Progress: os.Stderr}
	start := time.Now()
	rows, err := bench.Run(opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, "lpvsbottleneck:", err)
		os.Exit(1)
	}
	mode := "full"
	if *quick {
		mode = "quick"
	}
	fmt.Printf("# LP (gonum simplex) vs bottleneck formula, time per experiment; %s run in %.0fs\n", mode, time.Since(start).Seconds())
	fmt.Printf("# %s %s/%s, GOMAXPROCS=%d, %s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.GOMAXPROCS(0), cpuModel())
	fmt.Println("# LP and bottleneck agree on every timed experiment. LP: mean of one solve per experiment; bottleneck: mean")
	fmt.Println("# in the windows right after the LP solves (same conditions; speed-up = LP/bottleneck); hot: back-to-back loop")
	if err := bench.WriteTable(os.Stdout, rows); err != nil {
		fmt.Fprintln(os.Stderr, "lpvsbottleneck:", err)
		os.Exit(1)
	}
	if *csvFile != "" {
		f, err := os.Create(*csvFile)
		if err == nil {
			err = bench.WriteCSV(f, rows)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "lpvsbottleneck:", err)
			os.Exit(1)
		}
	}
}

// cpuModel returns the CPU model name from /proc/cpuinfo, or "unknown CPU".
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}
