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
	"syscall"

	"github.com/portlab/portlab/lib/dataset"
	"github.com/portlab/portlab/lib/measure"
)

const usage = `portlab — CPU port mappings: model, simulate, compare

Usage:
  portlab predict -mapping M -experiments E [-ipc R] [-out FILE]
        predict the experiments' inverse throughputs with mapping M and,
        when they are measured, compare (MAPE, Pearson, Kendall τ-b)
  portlab predict -blocks FILE -machine M [-peer llvm-mca -mcpu CPU]
        predict basic blocks' cycles per iteration with the simulator on
        machine M and llvm-mca, and compare when the blocks are measured
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
  portlab campaign merge -out FILE SHARD...
        merge the shard files of a campaign measured in parts (measure
        -shard i/n, e.g. as a Slurm job array), refusing shards from
        another machine or with other settings; see portlab campaign -h
  portlab infer NAME (-experiments E -ports N | -simulate M | -measure …) [-eval E2]
        infer a port mapping with an inference method: pmevo (PMEvo's
        evolutionary algorithm), palmed (PALMED's resource mapping), cegis
        (counter-example-guided SMT with z3), uopsinfo (uops.info's
        blocking instructions, per-port counters), explainable (the
        thesis's Zen+ method, one µop counter) or classes (a whole
        instruction set: classes of forms against probe forms, a method on
        one representative per class); see portlab infer NAME -h
  portlab anica -predictors A,B -budget N|DURATION -out DIR
        find and generalise where basic-block predictors disagree
        (AnICA): sim:MACHINE, llvm-mca:CPU; resumable; see portlab anica -h
  portlab machine -mapping M -latencies CAMPAIGN.jsonl -out host.json
        write this host's machine description for the simulator: a mapping
        inferred on it and the latencies measured with -design latency
  portlab version
  portlab help | -h
        this text

Exit status: 0 when the asked-for result was produced; 1 on an error
(including results that could not be produced, e.g. no experiment
predicted or measured); 2 when no command is given; 130 after an
interrupt (Ctrl-C, or SIGTERM from a batch scheduler; what was final is
kept: a measure campaign resumes).

` + dataset.Names + "\n"

func main() {
	// The benchmarker runs generated code in a copy of this executable.
	measure.RunWorkerIfRequested()
	// SIGTERM is how a batch scheduler (Slurm) stops a task it cancels,
	// requeues or times out: it ends a command as Ctrl-C does, keeping
	// what was final.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	code := exitCode(err, ctx.Err() != nil)
	if code != 0 && !errors.Is(err, errNoCommand) {
		fmt.Fprintln(os.Stderr, "portlab:", message(err))
	}
	os.Exit(code)
}

// errNoCommand is run's error when no command is given (usage printed).
var errNoCommand = errors.New("no command given")

// exitCode is the exit status for run's error err; interrupted is set
// when the process got an interrupt (SIGINT).
func exitCode(err error, interrupted bool) int {
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errNoCommand):
		return 2
	case interrupted && errors.Is(err, context.Canceled):
		return 130
	}
	return 1
}

// message is the line printed for err: what an interrupt kept, or
// "interrupted" for another cancelled context; err's text otherwise.
func message(err error) string {
	var ie *interruptedError
	if errors.As(err, &ie) {
		return ie.Error()
	}
	if errors.Is(err, context.Canceled) {
		return "interrupted"
	}
	return err.Error()
}

// parseFlags parses args into fs, a command's flags (named after the
// command), for a command that takes no positional arguments: -h returns
// flag.ErrHelp after fs.Usage printed the help (run then succeeds); a bad
// flag or value is one line naming it, with where the help is, not the
// whole help; an argument that is not a flag is an error naming it.
func parseFlags(fs *flag.FlagSet, args []string) error {
	out, usage := fs.Output(), fs.Usage
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	err := fs.Parse(args)
	fs.SetOutput(out)
	fs.Usage = usage
	if errors.Is(err, flag.ErrHelp) {
		fs.Usage()
		return err
	}
	if err != nil {
		return fmt.Errorf("%w (see portlab %s -h)", err, fs.Name())
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%s: unexpected argument %q (it takes flags only; see portlab %s -h)", fs.Name(), fs.Arg(0), fs.Name())
	}
	return nil
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	err := dispatch(ctx, args, stdout, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return nil // -h: the help was asked for and printed
	}
	return err
}

func dispatch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return errNoCommand
	}
	switch args[0] {
	case "predict":
		return cmdPredict(ctx, args[1:], stdout, stderr)
	case "anica":
		return cmdAnica(ctx, args[1:], stdout, stderr)
	case "reproduce":
		return cmdReproduce(ctx, args[1:], stdout, stderr)
	case "data":
		return cmdData(ctx, args[1:], stdout, stderr)
	case "measure":
		return cmdMeasure(ctx, args[1:], stdout, stderr)
	case "infer":
		return cmdInfer(ctx, args[1:], stdout, stderr)
	case "campaign":
		return cmdCampaign(ctx, args[1:], stdout, stderr)
	case "machine":
		return cmdMachine(ctx, args[1:], stdout, stderr)
	case "kernel":
		return cmdKernel(ctx, args[1:], stderr)
	case "install":
		return cmdInstall(args[1:], stdout, stderr)
	case "repl":
		return cmdREPL(ctx, args[1:], os.Stdin, stdout, stderr)
	case "version":
		if len(args) > 1 {
			return fmt.Errorf("version: unexpected argument %q", args[1])
		}
		fmt.Fprintln(stdout, "portlab", version)
		return nil
	case "help", "-h", "-help", "--help":
		if len(args) > 2 {
			return fmt.Errorf("help: unexpected argument %q", args[2])
		}
		if len(args) > 1 {
			// portlab help CMD: that command's help.
			return dispatch(ctx, []string{args[1], "-h"}, stdout, stderr)
		}
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", strings.Join(args[:1], ""))
}

const version = "0.1.0-dev"
