// Command portlab is the command-line face of the portlab library: it
// predicts throughputs with port mappings, compares them with measurements,
// reproduces the reference numbers of the PMEvo data, and manages the data
// sets. The Jupyter kernel and REPL subcommands come with the kernel package.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/portlab/portlab/lib/dataset"
	"github.com/portlab/portlab/lib/measure"
)

const usage = `portlab — CPU port mappings: model, simulate, compare

Usage:
  portlab predict -mapping M -experiments E [-ipc R] [-out FILE]
        predict the experiments' inverse throughputs with mapping M and,
        when they are measured, compare (MAPE, Pearson, Kendall τ-b)
  portlab reproduce
        recompute the reference table of the PMEvo data (mappings vs measured)
  portlab data dir|list|download
        show the data directory, list the pinned data files, or download
        them into the user cache (checksum-verified)
  portlab kernel CONNECTION_FILE
        run the Jupyter kernel (front ends start it through the kernelspec)
  portlab install [--user | --sys-prefix | --prefix DIR]
        install the Jupyter kernelspec "portlab" (display name "Go (portlab)")
  portlab repl
        an interactive Go session with the library pre-loaded (the kernel's
        engine in the terminal); %help lists the magics
  portlab measure -insns FILE|curated[:N] -design D -out FILE.jsonl
        measure instruction throughput on this machine (resumable
        campaigns; see portlab measure -h)
  portlab infer NAME (-experiments E -ports N | -simulate M | -measure …) [-eval E2]
        infer a port mapping with an inference method: pmevo (PMEvo's
        evolutionary algorithm), palmed (PALMED's resource mapping), cegis
        (counter-example-guided SMT with z3), uopsinfo (uops.info's
        blocking instructions, per-port counters) or explainable (the
        thesis's Zen+ method, one µop counter); see portlab infer NAME -h
  portlab version

` + dataset.Names + "\n"

func main() {
	// The benchmarker runs generated code in a copy of this executable.
	measure.RunWorkerIfRequested()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(2)
		}
		fmt.Fprintln(os.Stderr, "portlab:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return flag.ErrHelp
	}
	switch args[0] {
	case "predict":
		return cmdPredict(ctx, args[1:], stdout, stderr)
	case "reproduce":
		return cmdReproduce(ctx, stdout)
	case "data":
		return cmdData(ctx, args[1:], stdout, stderr)
	case "measure":
		return cmdMeasure(ctx, args[1:], stdout, stderr)
	case "infer":
		return cmdInfer(ctx, args[1:], stdout, stderr)
	case "kernel":
		return cmdKernel(ctx, args[1:], stderr)
	case "install":
		return cmdInstall(args[1:], stdout, stderr)
	case "repl":
		return cmdREPL(ctx, args[1:], os.Stdin, stdout, stderr)
	case "version":
		fmt.Fprintln(stdout, "portlab", version)
		return nil
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", strings.Join(args[:1], ""))
}

const version = "0.1.0-dev"
