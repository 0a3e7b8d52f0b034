package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/portlab/portlab/lib/machine"
	"github.com/portlab/portlab/lib/measure"
	"github.com/portlab/portlab/lib/source"
)

const machineUsage = `portlab machine — write this host's machine description (portlab.machine/v1)

  portlab machine -mapping M -latencies CAMPAIGN.jsonl -out host.json [flags]

  -mapping       the port mapping inferred on this host: a mapping file (e.g.
                 PREFIX.json of portlab infer pmevo -out PREFIX) or a name
  -latencies     measurements of the latency design on this host (portlab
                 measure -design latency -out FILE); a comma-separated list
                 is merged
  -out           the machine file to write; portlab predict -blocks and the
                 simulator read it
  -load-latency  the host's load-to-use latency in cycles (0: not known),
                 added to the register latency of forms with a memory input;
                 without it those forms keep the simulator's defaults
  -name          the machine's name (default "host")
  -ipc, -rob, -issue, -retire
                 front-end peak (instructions per cycle), reorder buffer
                 (µops), issue and retire widths (µops per cycle); 0: not
                 described

What is left out (latencies of forms the mapping lacks, forms with a memory
input without -load-latency, forms without a measured latency) is listed.
`

func cmdMachine(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("machine", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, machineUsage) }
	mapping := fs.String("mapping", "", "port mapping inferred on the host")
	lats := fs.String("latencies", "", "latency design measurements")
	out := fs.String("out", "", "machine file to write")
	load := fs.Int("load-latency", 0, "load-to-use latency in cycles")
	name := fs.String("name", "host", "machine name")
	ipc := fs.Float64("ipc", 0, "front-end peak in instructions per cycle")
	rob := fs.Int("rob", 0, "reorder buffer in µops")
	issue := fs.Int("issue", 0, "issue width in µops per cycle")
	retire := fs.Int("retire", 0, "retire width in µops per cycle")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	for _, f := range []struct{ flag, v string }{{"mapping", *mapping}, {"latencies", *lats}, {"out", *out}} {
		if f.v == "" {
			return fmt.Errorf("machine needs -%s (see portlab machine -h)", f.flag)
		}
	}
	for _, f := range []struct {
		flag string
		v    int
	}{{"load-latency", *load}, {"rob", *rob}, {"issue", *issue}, {"retire", *retire}} {
		if f.v < 0 {
			return fmt.Errorf("-%s %d: want a whole number ≥ 0", f.flag, f.v)
		}
	}
	if !(*ipc >= 0) {
		return fmt.Errorf("-ipc %v: want a number ≥ 0", *ipc)
	}
	mach, err := machine.Lookup(*mapping)
	if err != nil {
		return flagError("mapping", err)
	}
	set, err := source.LoadExperiments(ctx, *lats)
	if err != nil {
		return flagError("latencies", err)
	}
	m, notes, err := measure.HostMachine(measure.HostDescription{
		Name: *name, Mapping: mach.Mapping, MappingSource: mach.MappingSource, Latencies: set, LoadLatency: *load,
		FrontEnd: machine.FrontEnd{InstructionsPerCycle: *ipc}, ReorderBuffer: *rob, IssueWidth: *issue, RetireWidth: *retire,
	})
	if err != nil {
		return err
	}
	if err := machine.Write(*out, m); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s: %s, latencies of %d forms\n", *out, m, len(m.Latencies))
	for _, n := range notes {
		fmt.Fprintln(stdout, "  "+n)
	}
	return nil
}
